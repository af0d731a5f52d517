#!/usr/bin/env bash
# Writes versions/<V>/go.mod and go.sum for each controller-tools version given (the module proxy's
# minimal version selection from controller-tools' own requirements: the k8s libraries it was released
# with, not newer ones), and the build tags that version needs. Run from go/crdgen: versions/update.sh v0.21.0 ...
set -euo pipefail
cd "$(dirname "$0")/.."
for v in "$@"; do
  d=versions/$v
  mkdir -p "$d"
  printf 'module crdyaml.local/crdgen\n\ngo 1.23.0\n\nrequire sigs.k8s.io/controller-tools %s\n' "$v" > "$d/go.mod"
  : > "$d/go.sum"
  tags=""
  # the applyconfiguration generator came with v0.18
  case "$v" in v0.1[0-7].*) tags="noapplyconfiguration" ;; esac
  if [ -n "$tags" ]; then echo "$tags" > "$d/tags"; else rm -f "$d/tags"; fi
  # `go mod tidy` would take every build tag into account; a build with -mod=mod adds exactly what this
  # version's build needs, at the versions controller-tools' own requirements select
  GOWORK=off go build -mod=mod -modfile="$d/go.mod" -tags="$tags" -o /dev/null .
  GOWORK=off go vet -mod=mod -modfile="$d/go.mod" -tags="$tags" . >/dev/null 2>&1 || true
  echo "$v: $(grep -E '^go |k8s.io/apiextensions-apiserver ' "$d/go.mod" | tr '\n' ' ')"
done

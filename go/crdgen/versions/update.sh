#!/usr/bin/env bash
# Writes versions/<V>/go.mod and go.sum for each controller-tools version given (the module proxy's
# minimal version selection from controller-tools' own requirements: the k8s libraries it was released
# with, not newer ones), and the build tags that version needs. Run from go/crdgen: versions/update.sh v0.21.0 ...
set -euo pipefail
cd "$(dirname "$0")/.."
for v in "$@"; do
  d=versions/$v
  mkdir -p "$d"
  # the applyconfiguration generator came with v0.18: older versions get the module that has none
  ac=./versions/applyconfig
  case "$v" in v0.1[0-7].*) ac=./versions/applyconfig-none ;; esac
  printf 'module crdyaml.local/crdgen\n\ngo 1.23.0\n\nrequire (\n\tcrdyaml.local/applyconfig v0.0.0\n\tsigs.k8s.io/controller-tools %s\n)\n\nreplace crdyaml.local/applyconfig => %s\n' "$v" "$ac" > "$d/go.mod"
  : > "$d/go.sum"
  # a build with -mod=mod adds exactly what this
  # version's build needs, at the versions controller-tools' own requirements select
  GOWORK=off go build -mod=mod -modfile="$d/go.mod" -o /dev/null .
  GOWORK=off go vet -mod=mod -modfile="$d/go.mod" . >/dev/null 2>&1 || true
  echo "$v: $(grep -E '^go |k8s.io/apiextensions-apiserver ' "$d/go.mod" | tr '\n' ' ')"
done

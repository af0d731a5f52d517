#!/usr/bin/env bash
# Builds crdgen against one controller-tools version: build.sh <version> <output binary>.
# The recipe PROTOCOL.md gives (the TypeScript client runs the same `go build`).
set -euo pipefail
v=$1 out=$2
cd "$(dirname "$0")"
[ -f "versions/$v/go.mod" ] || { echo "controller-tools $v is not supported (see versions/)" >&2; exit 2; }
GOWORK=off GOFLAGS=-mod=readonly go build -trimpath -modfile="versions/$v/go.mod" \
  -ldflags "-X sigs.k8s.io/controller-tools/pkg/version.version=$v" -o "$out.tmp.$$" .
mv -f "$out.tmp.$$" "$out"

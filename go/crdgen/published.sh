#!/usr/bin/env bash
# Go tier (issue 26): the CRDs crdgen generates from released API packages equal the CRDs those releases
# published (../shared/crd-releases), each built with the controller-tools version the project pins.
# The demo tests run in the same binary, so each pinned version also passes them. Sources come from the
# Go module proxy; the module cache makes later runs fast.
#   go/crdgen/published.sh            all projects
#   go/crdgen/published.sh kueue      one
set -euo pipefail
cd "$(dirname "$0")"
releases=${CRD_RELEASES:-../../../shared/crd-releases}
[ -d "$releases/crds" ] || { echo "Go tier did not run: $releases/crds is missing"; exit 0; }
releases=$(cd "$releases" && pwd)
export GOWORK=off GOFLAGS=-mod=readonly

# project  module  tag  packages(JSON)  profile  controller-tools version when the published CRDs do not say
# gateway-api pins v0.21.0 in tools/go.mod (a nested module, not in the module zip) and runs its own
# generator around controller-tools (tools/generator: channels, <gateway:...> description tags).
projects='jobset sigs.k8s.io/jobset v0.12.0 ["./api/..."] - -
kueue sigs.k8s.io/kueue v0.17.0 ["./apis/..."] - -
gateway-api sigs.k8s.io/gateway-api v1.6.0 ["./apis/...","./apisx/..."] gateway v0.21.0'

failed=0 ran=0
while read -r name module tag pkgs profile pin; do
  if [ $# -gt 0 ] && [ "$1" != "$name" ]; then continue; fi
  published=$releases/crds/$name/$tag
  dir=$(go mod download -json "$module@$tag" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$dir" ]; then echo "$name $tag: the module proxy did not serve it"; failed=1; continue; fi
  v=$(sed -n 's/^ *controller-gen.kubebuilder.io\/version: *//p' "$published"/*.yaml | sort -u | head -1)
  [ -n "$v" ] || v=$pin
  if [ ! -f "versions/$v/go.mod" ]; then echo "$name $tag: controller-tools $v is not supported"; failed=1; continue; fi
  [ "$profile" = "-" ] && profile=""
  echo "== $name $tag with controller-tools $v"
  case_json=$(printf '{"name":"%s %s","moduleDir":"%s","published":"%s","packages":%s,"profile":"%s"}' "$name" "$tag" "$dir" "$published" "$pkgs" "$profile")
  ran=$((ran + 1))
  if ! CRDGEN_CASE=$case_json go test -modfile="versions/$v/go.mod" \
      -ldflags "-X sigs.k8s.io/controller-tools/pkg/version.version=$v" -count=1 -v . \
      | grep -vE '^=== RUN|^--- PASS|^PASS$'; then
    failed=1
  fi
done <<<"$projects"
if [ "$failed" -ne 0 ]; then echo "Go tier: $ran project(s) run, some failed"; exit 1; fi
echo "Go tier: $ran project(s), published CRDs reproduced"

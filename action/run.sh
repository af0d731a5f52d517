#!/usr/bin/env bash
# The GitHub Action's steps (action.yml runs this; test/package/action.test.ts runs it on a fixture):
# install the crd-yaml package into a prefix of its own, check INPUT_PATHS with INPUT_ARGS writing SARIF to
# INPUT_SARIF_FILE, print the findings as workflow annotations, and exit as the check does.
# Environment: INPUT_PATHS, INPUT_ARGS, INPUT_SARIF_FILE, INPUT_PACKAGE (what npm installs; default crd-yaml
# at this action's version), RUNNER_TEMP (where it is installed), GITHUB_OUTPUT (sarif-file, exit-code).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
package=${INPUT_PACKAGE:-}
if [ -z "$package" ]; then
  package="crd-yaml@$(node -p "require('$here/../package.json').version")"
fi
prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/crd-yaml-action"
echo "::group::npm install -g $package"
npm install -g --prefix "$prefix" --no-audit --no-fund "$package" || { echo "::error title=crd-yaml::npm install -g $package failed"; exit 2; }
echo "::endgroup::"
bin="$prefix/bin/crd-yaml"
"$bin" --version

sarif=${INPUT_SARIF_FILE:-crd-yaml.sarif}
# Paths and options are words: split on spaces, never globbed here (the check expands folders itself).
set -f
# shellcheck disable=SC2086
"$bin" check --format sarif ${INPUT_ARGS:-} ${INPUT_PATHS:-.} >"$sarif"
code=$?
set +f
node "$here/annotations.mjs" "$sarif" || true
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
  echo "exit-code=$code" >>"$GITHUB_OUTPUT"
fi
exit "$code"

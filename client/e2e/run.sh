#!/bin/bash
# Runs extension-tests.cjs inside code-server's real extension host (VS Code 1.100) with the extension
# folder (this repository, built) loaded as a development extension. Needs a code-server install made by
# the editor harness's setup-codeserver.sh DIR (code-server 4.100.3, Chromium, playwright-core).
# usage: client/e2e/run.sh DIR        (from the repository root, after npm run build)
set -euo pipefail
R=${1:?usage: run.sh CODE_SERVER_DIR}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=${PORT:-8093}
D=$(mktemp -d); WS=$D/ws; mkdir -p "$WS/crds" "$D/data/User" "$D/ext"
cp "$ROOT/test/service/fixtures/widget-crd.yaml" "$WS/crds/widget.yaml"
printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: huge\n  colour: red\n' > "$WS/cr.yaml"
echo '{"workbench.startupEditor":"none","security.workspace.trust.enabled":false,"extensions.autoCheckUpdates":false,"extensions.autoUpdate":false,"telemetry.telemetryLevel":"off"}' > "$D/data/User/settings.json"
export XDG_DATA_HOME=$D/xdg-data XDG_CONFIG_HOME=$D/xdg-config RESULT=$D/result.json WS
"$R/node_modules/.bin/code-server" --bind-addr 127.0.0.1:$PORT --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$D/data" --extensions-dir "$D/ext" "$WS" > "$D/server.log" 2>&1 &
CSPID=$!; trap 'kill $CSPID; wait $CSPID 2>/dev/null' EXIT
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; do sleep 0.2; done
PORT=$PORT EXT_DIR=$ROOT TESTS=$ROOT/client/e2e/extension-tests.cjs WS=$WS RESULT=$RESULT NODE_PATH=$R/node_modules \
  node "$ROOT/client/e2e/driver.cjs"

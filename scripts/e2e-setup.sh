#!/usr/bin/env bash
# Installs what the editor tests need, from Debian packages and the npm registry only, pinned:
# code-server 4.100.3 (VS Code 1.100.3 on node 20) into .work/e2e/cs (cached: a stamp file skips the
# install next time), Debian chromium (driven by playwright-core, a devDependency), neovim and emacs + eglot.
# usage: scripts/e2e-setup.sh [DIR]   (default .work/e2e/cs; root or passwordless apt needed once)
# Adapted from shared/editor-harness/setup-codeserver.sh; pitfalls handled there: root installs need
# --ignore-scripts, kerberos needs libkrb5-dev, @vscode/ripgrep downloads from GitHub unless bin/rg
# exists (Debian's rg is linked), node-pty's build runs `npx node-gyp` (npm_config_yes).
set -euo pipefail
CODE_SERVER_VERSION=4.100.3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
R=${1:-$ROOT/.work/e2e/cs}
STAMP=$R/.installed-code-server-$CODE_SERVER_VERSION
t0=$(date +%s)
export DEBIAN_FRONTEND=noninteractive npm_config_yes=true npm_config_update_notifier=false

DEB="chromium ripgrep neovim emacs-nox elpa-eglot elpa-yaml-mode libkrb5-dev build-essential python3 curl"
missing=""
for p in $DEB; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "e2e-setup: apt-get install$missing"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

if [ -f "$STAMP" ] && [ -x "$R/node_modules/.bin/code-server" ]; then
  echo "e2e-setup: code-server $CODE_SERVER_VERSION already in $R ($(( $(date +%s) - t0 )) s)"
  exit 0
fi
mkdir -p "$R" && cd "$R"
[ -f package.json ] || echo '{"name":"crd-yaml-e2e-tools","private":true}' > package.json
npm install --save-exact "code-server@$CODE_SERVER_VERSION" --ignore-scripts --no-audit --no-fund --loglevel=error
V=$R/node_modules/code-server/lib/vscode
(cd "$V" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
mkdir -p "$V/node_modules/@vscode/ripgrep/bin" && ln -sf /usr/bin/rg "$V/node_modules/@vscode/ripgrep/bin/rg"
(cd "$V" && npm rebuild --loglevel=error >/dev/null)
ln -sfn node_modules "$V/node_modules.asar"
(cd "$V/bin/remote-cli" && ln -sfn code-linux.sh code-server)
(cd "$V/bin/helpers" && ln -sfn browser-linux.sh browser.sh)
(cd "$V/extensions" && npm install --omit=dev --no-audit --no-fund --loglevel=error)
npm rebuild argon2 --loglevel=error >/dev/null
touch "$STAMP"
echo "e2e-setup: code-server $CODE_SERVER_VERSION installed in $R in $(( $(date +%s) - t0 )) s"

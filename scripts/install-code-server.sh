#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3, the newest that runs on Node 20) into .cache/code-server, outside the
# project's dependencies, for the end-to-end test. Idempotent: an existing install is kept. Needs no internet beyond
# the npm registry and Debian's packages; build tools come from Debian.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=4.100.3
DEST="$PWD/.cache/code-server"
if [ -x "$DEST/node_modules/.bin/code-server" ] && grep -q "\"version\": \"$VERSION\"" "$DEST/node_modules/code-server/package.json" 2>/dev/null; then
  exit 0
fi
missing=()
for p in build-essential python3 pkg-config libkrb5-dev ripgrep chromium fonts-dejavu-core; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
mkdir -p "$DEST" "$PWD/.cache/tmp"
# @vscode/ripgrep's postinstall downloads rg unless it finds its cache in os.tmpdir(): hand it Debian's rg.
export TMPDIR="$PWD/.cache/tmp"
mkdir -p "$TMPDIR/vscode-ripgrep-cache-1.15.11" "$PWD/.cache/rgpkg"
cp /usr/bin/rg "$PWD/.cache/rgpkg/"
tar czf "$TMPDIR/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$PWD/.cache/rgpkg" rg
export npm_config_unsafe_perm=true   # code-server's postinstall refuses to run as root otherwise
export npm_config_yes=true           # node-pty's postinstall runs `npx node-gyp`
export npm_config_nodedir=/usr       # Node's headers are in /usr/include/node
cd "$DEST"
[ -f package.json ] || echo '{"name":"code-server-for-e2e","private":true}' > package.json
npm install "code-server@$VERSION" --foreground-scripts --no-audit --no-fund --loglevel=error
test -x "$DEST/node_modules/.bin/code-server"

#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing: chromium (the state tree page's tests and the
# real-VS-Code test drive it headless with playwright-core) and a font for its text. `npm test` runs it first
# (pretest); it installs when it can (root, or sudo without a password, and apt-get), and otherwise says what is
# missing and leaves the tests that need it to fail with the reason. STRICT=1 (as .ci/run sets) makes that an error.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || [ -n "${CHROMIUM_PATH:-}" ] || missing+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
cannot() {
  echo "note: the browser tests need ${missing[*]}, and $1; install them (or set CHROMIUM_PATH) for those tests to pass" >&2
  if [ "${STRICT:-0}" = "1" ]; then exit 1; fi
  exit 0
}
command -v apt-get >/dev/null 2>&1 || cannot "there is no apt-get here"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || cannot "installing them needs root (or sudo without a password)"
  sudo="sudo"
fi
echo "installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

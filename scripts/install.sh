#!/usr/bin/env bash
# Creates .venv and installs skullcam into it. `install.sh` = runtime only; `install.sh dev` adds
# training (torch pinned to this machine's wheels, ultralytics) and test tools, plus Debian's
# chromium for the browser tests when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
extras=""
if [ "${1:-}" = "dev" ]; then
  extras="[train,dev]"
  if [ "$(id -u)" = 0 ] && ! command -v chromedriver >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null) \
      || echo "warning: could not install chromium; browser tests will be skipped" >&2
  fi
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"

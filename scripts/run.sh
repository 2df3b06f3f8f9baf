#!/usr/bin/env bash
# Installs skullcam (runtime only) and starts the main job: camera -> recognition -> scoreboard.
# With no camera it replays the bundled recorded game. Extra arguments go to `skullcam run`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install.sh
exec .venv/bin/skullcam run "$@"

#!/usr/bin/env bash
# The project's one test command (README, .ci/run): installs from the project's own files into
# .venv, then lints, type-checks the whole package, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install.sh dev
. .venv/bin/activate
ruff check .
ruff format --check .
python scripts/typecheck.py  # mypy on all of skullcam: see that script for how it finds it
python -m pytest "$@"

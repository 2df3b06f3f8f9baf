# Sourced by the GPU training scripts (train_gpu.sh, refine_on_gpu.sh), after their
# `set -euo pipefail`: run from the checkout's root, SKULLCAM the command to run (default: this
# checkout's .venv), WORKERS every core unless set, and `stage` marking each step in the log.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${SKULLCAM:-}" ]; then
  . .venv/bin/activate
  SKULLCAM=skullcam
fi
WORKERS=${WORKERS:-$(nproc)}
stage() { echo "== $(date -u +%T) $*"; }

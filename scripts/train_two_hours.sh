#!/usr/bin/env bash
# The one-command training recipe that fits the two-hour budget on a 2-core CPU: stand-in deck,
# 3,000 scenes labelled down to 30 % visible, then `skullcam train` with its defaults
# (12 detector epochs from yolo11n-obb.yaml, 20 classifier epochs from scratch).
# Measured in session 19: 37 min end to end on an otherwise idle 2-core machine (1 h 32 min in
# session 5, before the CPU training speed-ups); the result reads 93.5 % of held-out test scenes,
# below the shipped GPU-trained model's 97.6 %: models/README.md has both.
# Writes to $RUNS/two_hours (default runs/), never over the shipped models/.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
OUT=${RUNS:-runs}/two_hours
skullcam synth deck --out "$OUT/deck" --style classic
skullcam synth scenes --deck "$OUT/deck" --count 3000 --val-fraction 0.1 --test-fraction 0 \
  --out "$OUT/scenes" --seed 11 --min-visible 0.3
skullcam train --dataset "$OUT/scenes" --out "$OUT/model" --work "$OUT/work"
if [ -d "${RUNS:-runs}/scenes_test" ]; then
  skullcam eval --dataset "${RUNS:-runs}/scenes_test" --split test --model "$OUT/model" \
    --out "$OUT/eval_test"
fi

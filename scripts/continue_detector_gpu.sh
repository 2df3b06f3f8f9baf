#!/usr/bin/env bash
# The shipped detector trained further on one lent GPU (session 32), where every CPU
# continuation of it (sessions 18, 26) ran too few epochs to beat it: new scenes rendered on
# every core, then `skullcam train --init-detector models/card-detector.pt` for a time budget at
# half the from-scratch run's peak learning rate, warmed up over its first epoch. The
# classifier, the corner reader and the reading rules are the shipped ones. Writes $RUNS/gpu_det (default runs/gpu_det), never
# models/; models/README.md has what it measured.
#
# Knobs (environment): DEVICE (cuda), WORKERS (all cores), SCENES (14000), DETECTOR_MIN (6.5),
# DETECTOR_LR (0.001), SKULLCAM (the command; default: this checkout's .venv), RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SKULLCAM:-}" ]; then
  . .venv/bin/activate
  SKULLCAM=skullcam
fi
OUT=${RUNS:-runs}/gpu_det
WORKERS=${WORKERS:-$(nproc)}
stage() { echo "== $(date -u +%T) $*"; }

stage deck
$SKULLCAM synth deck --out "$OUT/deck" --style classic
stage scenes
$SKULLCAM synth scenes --deck "$OUT/deck" --count "${SCENES:-14000}" --val-fraction 0.02 \
  --test-fraction 0 --out "$OUT/scenes" --seed 32 --min-visible 0.3 --workers "$WORKERS"
stage train
# The model folder to train into: the shipped one, whose readers and rules the run keeps.
rm -rf "$OUT/model"
mkdir -p "$OUT/model"
cp models/recognizer.json models/card-*.onnx models/card-*.pt models/corner-reader.* "$OUT/model/"
$SKULLCAM train --dataset "$OUT/scenes" --out "$OUT/model" --work "$OUT/work" \
  --device "${DEVICE:-cuda}" --workers "$WORKERS" --batch 64 --detector-epochs 40 \
  --detector-minutes "${DETECTOR_MIN:-6.5}" --detector-lr "${DETECTOR_LR:-0.001}" \
  --detector-warmup 1 --init-detector models/card-detector.pt --skip-classifier --skip-corner
stage done

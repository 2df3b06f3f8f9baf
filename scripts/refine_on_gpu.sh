#!/usr/bin/env bash
# The shipped recognizer refined on one lent GPU (session 32), in two stages:
# 1. the detector trained further, where every CPU continuation of it (sessions 18, 26) ran too
#    few epochs to beat it: 14,000 new scenes rendered on every core, then `skullcam train
#    --init-detector models/card-detector.pt` for a time budget at half the from-scratch run's
#    peak learning rate, warmed up over its first epoch;
# 2. the classifier fine-tuned on that detector's boxes, as session 23 fine-tuned it on the
#    previous detector's: 10,000 more new scenes, 8 epochs at lr 1e-3, up to 3 raw boxes per
#    covered card.
# The corner reader is the shipped one. Writes $RUNS/gpu_refine (default runs/gpu_refine), never
# models/; models/README.md has what it measured and the thresholds shipped with it.
#
# Knobs (environment): DEVICE (cuda), WORKERS (all cores), SCENES (14000), CLASSIFIER_SCENES
# (10000), DETECTOR_MIN (6.2), DETECTOR_LR (0.001), SKULLCAM (the command; default: this
# checkout's .venv), RUNS.
set -euo pipefail
. "$(dirname "$0")/gpu_run_setup.sh"
OUT=${RUNS:-runs}/gpu_refine
DEVICE=${DEVICE:-cuda}

stage deck
$SKULLCAM synth deck --out "$OUT/deck" --style classic
stage detector scenes
$SKULLCAM synth scenes --deck "$OUT/deck" --count "${SCENES:-14000}" --val-fraction 0.02 \
  --test-fraction 0 --out "$OUT/scenes" --seed 32 --min-visible 0.3 --workers "$WORKERS"
stage detector
# The model folder to train into: the shipped one, whose readers and rules the run keeps.
rm -rf "$OUT/model"
mkdir -p "$OUT/model"
cp models/recognizer.json models/card-*.onnx models/card-*.pt models/corner-reader.* "$OUT/model/"
$SKULLCAM train --dataset "$OUT/scenes" --out "$OUT/model" --work "$OUT/work" \
  --device "$DEVICE" --workers "$WORKERS" --batch 64 --detector-epochs 40 \
  --detector-minutes "${DETECTOR_MIN:-6.2}" --detector-lr "${DETECTOR_LR:-0.001}" \
  --detector-warmup 1 --init-detector models/card-detector.pt --skip-classifier --skip-corner
# Stage 2 writes the model folder's training.json again: keep the detector's record beside it.
cp "$OUT/model/training.json" "$OUT/training_detector.json"
stage classifier scenes
$SKULLCAM synth scenes --deck "$OUT/deck" --count "${CLASSIFIER_SCENES:-10000}" \
  --val-fraction 0.03 --test-fraction 0 --out "$OUT/scenes_classifier" --seed 3223 \
  --min-visible 0.3 --workers "$WORKERS"
stage classifier
$SKULLCAM train --dataset "$OUT/scenes_classifier" --out "$OUT/model" --work "$OUT/work_classifier" \
  --skip-detector --skip-corner --classifier-epochs 8 --crop-copies 2 --candidate-crops 3 \
  --init-classifier models/card-classifier.pt --classifier-lr 1e-3 \
  --max-classifier-scenes "${CLASSIFIER_SCENES:-10000}" --device "$DEVICE" --workers "$WORKERS"
stage done

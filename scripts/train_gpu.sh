#!/usr/bin/env bash
# The whole recognizer in one short GPU run, from scratch: stand-in deck, 10,000 scenes
# rendered on every core, then one `skullcam train` with a time budget for each network
# (detector 4 min, classifier 1.75 min, corner reader 0.75 min) instead of epoch counts, since
# a lent GPU's speed is not known beforehand. About 9 minutes on one H200 with 16 cores;
# models/README.md has what it measured. Writes $RUNS/gpu (default runs/gpu), never models/.
#
# Knobs (environment): DEVICE (cuda), WORKERS (all cores), SCENES (10000), DETECTOR_MIN,
# CLASSIFIER_MIN, CORNER_MIN (the budgets above), SKULLCAM (the command; default: this
# checkout's .venv), RUNS.
set -euo pipefail
. "$(dirname "$0")/gpu_run_setup.sh"
OUT=${RUNS:-runs}/gpu

stage deck
$SKULLCAM synth deck --out "$OUT/deck" --style classic
stage scenes
$SKULLCAM synth scenes --deck "$OUT/deck" --count "${SCENES:-10000}" --val-fraction 0.03 \
  --test-fraction 0 --out "$OUT/scenes" --seed 12 --min-visible 0.3 --workers "$WORKERS"
stage train
$SKULLCAM train --dataset "$OUT/scenes" --out "$OUT/model" --work "$OUT/work" \
  --device "${DEVICE:-cuda}" --workers "$WORKERS" --batch 64 --detector-epochs 40 \
  --detector-minutes "${DETECTOR_MIN:-4}" --classifier-minutes "${CLASSIFIER_MIN:-1.75}" \
  --corner-minutes "${CORNER_MIN:-0.75}" --classifier-batch 256 --crop-copies 2 \
  --max-classifier-scenes 20000
stage done

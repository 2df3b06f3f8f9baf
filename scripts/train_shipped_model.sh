#!/usr/bin/env bash
# Rebuilds the shipped recognizer in models/ from scratch: stand-in deck -> scenes -> train ->
# held-out evaluation. The exact command the model card cites. Took ~2 h on 2 shared cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
RUNS=${RUNS:-runs}
skullcam synth deck --out "$RUNS/deck_classic" --style classic
skullcam synth scenes --deck "$RUNS/deck_classic" --count 3000 --val-fraction 0.1 \
  --test-fraction 0 --out "$RUNS/scenes" --seed 11
skullcam synth scenes --deck "$RUNS/deck_classic" --count 1000 --split test \
  --out "$RUNS/scenes_test" --seed 9999
# 1. detector 6 epochs from yolo11n-obb.yaml, then the classifier on its crops
skullcam train --dataset "$RUNS/scenes" --out models --work "$RUNS/train" \
  --detector-epochs 6 --classifier-epochs 14 --crop-copies 1
# 2. two more detector epochs from that checkpoint; only its detector is kept
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/detector2" --work "$RUNS/train2" \
  --init-detector "$RUNS/train/detector/weights/last.pt" --detector-epochs 2 \
  --classifier-epochs 1 --max-classifier-scenes 50
cp "$RUNS/detector2/card-detector.onnx" models/card-detector.onnx
skullcam eval --dataset "$RUNS/scenes_test" --split test --model models --out "$RUNS/eval_test"

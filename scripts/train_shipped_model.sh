#!/usr/bin/env bash
# Rebuilds the shipped recognizer in models/ from scratch: stand-in deck -> scenes -> train ->
# held-out evaluation. The exact command the model card cites. Takes ~1.5 h on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. .venv/bin/activate
RUNS=${RUNS:-runs}
skullcam synth deck --out "$RUNS/deck_classic" --style classic
skullcam synth scenes --deck "$RUNS/deck_classic" --count 3000 --val-fraction 0.1 \
  --test-fraction 0 --out "$RUNS/scenes" --seed 11
skullcam synth scenes --deck "$RUNS/deck_classic" --count 1000 --split test \
  --out "$RUNS/scenes_test" --seed 9999
skullcam train --dataset "$RUNS/scenes" --out models --work "$RUNS/train" \
  --detector-epochs "${DETECTOR_EPOCHS:-6}" --classifier-epochs "${CLASSIFIER_EPOCHS:-14}"
skullcam eval --dataset "$RUNS/scenes_test" --split test --model models --out "$RUNS/eval_test"

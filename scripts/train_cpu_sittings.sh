#!/usr/bin/env bash
# The session-9 recognizer (skullcam-20261130-191644), the best a 2-core CPU has made: stand-in
# deck -> scenes -> train -> held-out evaluation, the exact commands in the order they were run,
# in several sittings (about 4 h 15 min). It is no longer the shipped model: since session 10
# that is one short GPU run (scripts/train_shipped_model.sh, 96.1 % of validation scenes
# against this recipe's 95.2 %). Kept as the route to a good model without a GPU. Writes
# models/ like the original run did; set RUNS for its scratch files. docs/model-history.md has
# what each step measured and took.
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
  --detector-epochs 6 --classifier-epochs 14 --crop-copies 1 --corner-epochs 0
# 2. two more detector epochs from that checkpoint; only its detector is kept
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/detector2" --work "$RUNS/train2" \
  --init-detector "$RUNS/train/detector/weights/last.pt" --detector-epochs 2 \
  --classifier-epochs 1 --max-classifier-scenes 50 --corner-epochs 0
cp "$RUNS/detector2/card-detector.onnx" models/card-detector.onnx
# 2b. fine-tune the classifier on the 8-epoch detector's crops, from step 1's classifier
mkdir -p "$RUNS/cls4"
cp models/card-detector.onnx "$RUNS/cls4/"
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/cls4" --work "$RUNS/train_cls4" --skip-detector \
  --classifier-epochs 10 --crop-copies 2 --init-classifier models/card-classifier.pt \
  --classifier-lr 2e-3 --corner-epochs 0
# 3. more detector epochs from step 2. The shipped run was a 10-epoch schedule stopped after
#    its 4th epoch (to change the labels, step 4); --detector-epochs 4 is the nearest replay.
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/detector3" --work "$RUNS/train3" \
  --init-detector "$RUNS/train2/detector/weights/last.pt" --detector-epochs 4 \
  --classifier-epochs 1 --max-classifier-scenes 50 --corner-epochs 0
# 4. label every card at least 30 % visible (was 50 %) and train the detector on: it no longer
#    learns a hard edge at exactly half hidden (the must-find line of evaluation stays 50 %)
skullcam synth relabel --dataset "$RUNS/scenes" --min-visible 0.3
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/detector4" --work "$RUNS/train4" \
  --init-detector "$RUNS/train3/detector/weights/last.pt" --detector-epochs 8 \
  --classifier-epochs 1 --max-classifier-scenes 50 --corner-epochs 0
# 5. fine-tune the classifier on that detector's crops, from step 2b's classifier
mkdir -p "$RUNS/cls5"
cp "$RUNS/detector4/card-detector.onnx" "$RUNS/cls5/"
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/cls5" --work "$RUNS/train_cls5" --skip-detector \
  --classifier-epochs 10 --crop-copies 2 --init-classifier "$RUNS/cls4/card-classifier.pt" \
  --classifier-lr 2e-3 --corner-epochs 0
# 6. four more detector epochs (same 0.3 labels); the shipped model is this detector with the
#    step-5 classifier
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/detector5" --work "$RUNS/train5" \
  --init-detector "$RUNS/train4/detector/weights/last.pt" --detector-epochs 4 \
  --classifier-epochs 1 --max-classifier-scenes 50 --corner-epochs 0
cp "$RUNS/cls5/card-classifier.onnx" "$RUNS/cls5/card-classifier.pt" models/
cp "$RUNS/detector5/card-detector.onnx" models/card-detector.onnx
skullcam eval --dataset "$RUNS/scenes_test" --split test --model models --out "$RUNS/eval_test"
# 7. Session 3 changed no weights: the manifest's detector_iou went from 0.5 to 0.9 (the default
#    every training run above now writes) and the
#    Recognizer now merges readings that overlap as one card does); the version was bumped so
#    recorded tricks say which behaviour read them. Tried and not shipped (docs/model-history.md):
#    8 more detector epochs from step 6 (runs/train6) and a classifier fine-tune on the step-6
#    detector's crops (runs/cls6). A larger validation set for that selection:
#    skullcam synth scenes --deck "$RUNS/deck_classic" --count 1000 --split val \
#      --out "$RUNS/scenes_val2" --seed 4242
# 8. Session 4: the Recognizer drops unsure readings lying inside a surer one
#    (vision/recognizer.py, COVERED_MIN_CONFIDENCE), and crops_from_detector teaches boxes on
#    cards under 30 % visible as "none". The classifier was fine-tuned 5 epochs so from step 5's
#    (models/ held it then), keeping the step-6 detector:
mkdir -p "$RUNS/cls7"
cp models/card-detector.onnx "$RUNS/cls7/"
skullcam train --dataset "$RUNS/scenes" --out "$RUNS/cls7" --work "$RUNS/train_cls7" --skip-detector \
  --init-classifier "$RUNS/cls5/card-classifier.pt" --classifier-epochs 5 --classifier-lr 1e-3 \
  --crop-copies 2 --corner-epochs 0
cp "$RUNS/cls7/card-classifier.onnx" "$RUNS/cls7/card-classifier.pt" models/
#    The detector's ultralytics weights now ship beside the ONNX, for skullcam enroll's detector
#    fine-tune (skullcam train now keeps them as card-detector.pt itself):
cp "$RUNS/train5/detector/weights/best.pt" models/card-detector.pt
skullcam eval --dataset "$RUNS/scenes_test" --split test --model models --out "$RUNS/eval_test"
# 9. Session 5 changed no weights. The one-command recipe that fits the two-hour budget is
#    scripts/train_two_hours.sh (1 h 32 min, 86.9 % of test scenes against this model's 91.3 %).
# 10. Session 6 changed no weights either: recognizer.json gained "detector_mirror": true (the
#    detector also runs on the mirror image; 93.1 % of test scenes right with the same weights).
#    A model trained by `skullcam train` gets it too (it is the manifest default).
# 11. Session 9: a corner reader (vision/corner_net.py) reads a box's two corner marks at full
#    crop resolution and names a card the classifier gave up on when it is sure (>= 0.6). The
#    steps above predate it (--corner-epochs 0). Trained from scratch, 10 epochs, keeping the
#    detector and classifier above (about 18 min here):
skullcam train --dataset "$RUNS/scenes" --out models --work "$RUNS/train9" --skip-detector \
  --skip-classifier --corner-epochs 10
skullcam eval --dataset "$RUNS/scenes_test" --split test --model models --out "$RUNS/eval_test"

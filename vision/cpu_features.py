"""What this CPU offers training: native bfloat16 or not. Torch-free, so the detector's
trainer (ultralytics) and the classifier's (plain torch) ask the same question the same way."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

BF16_ENV = "SKULLCAM_TRAIN_BF16"
"""Set to 0 to train in float32 on a CPU with native bfloat16, or to 1 to force bfloat16."""


@cache
def cpu_has_native_bf16() -> bool:
    """True on a CPU with bfloat16 instructions (AMX or AVX512-BF16), where oneDNN runs a
    bfloat16 training step 1.8 x as fast as float32 (a 2-core Xeon with AMX, the classifier at
    batch 128: 4.4 -> 8.3 batches/s, channels-last on both sides 5.8 -> 10.3). Elsewhere (a
    Raspberry Pi, an older PC) bfloat16 is emulated and slower, so float32 stays."""
    forced = os.environ.get(BF16_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return re.search(r"\b(amx_bf16|avx512_bf16)\b", flags) is not None


def cpu_training_note() -> str:
    """The training log's first line on a CPU: which arithmetic it trains in, and, in float32,
    that the model card's training times (measured with bfloat16) will not hold here: a run
    three times as slow as the card's figures says why before it starts, not after."""
    forced = os.environ.get(BF16_ENV)
    if forced in ("0", "1"):
        arithmetic = "bfloat16" if forced == "1" else "float32"
        return f"training on the CPU in {arithmetic} ({BF16_ENV}={forced})"
    if cpu_has_native_bf16():
        return "training on the CPU in bfloat16 (AVX512-BF16 or AMX)"
    return (
        "training on the CPU in float32: this CPU has no bfloat16 instructions (AVX512-BF16, "
        "AMX), so training takes about 3 x the times in models/README.md (a detector batch of "
        "16: 1.8 s on a 2-core CPU without them, 0.51-0.55 s on one with bfloat16)"
    )

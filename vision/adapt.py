"""Adapt the recognizer to an enrolled deck: scenes of it, a short detector fine-tune, crops, a
short classifier fine-tune.

Starting from the active model's weights, a few epochs on scenes the generator renders with
the user's own faces are enough: the features (card outlines, colour fields, corner numbers,
pictures) carry over; only their look changes. The detector only says "card", but it still
learned the stand-in deck's borders: on a deck with other art it boxed fewer cards and fitted
its boxes worse (alt deck: 22 cards never boxed on 500 scenes, against 6 on 1,000 scenes of
the deck it learned), so it gets two epochs too. The classifier's crops are cut both on the
true outlines and where the (adapted) detector puts its boxes, the misaligned crops it meets
in a game.

Every stage leaves its result in the work folder and is skipped when that result is already
there, and the fine-tune saves its full state after each epoch, so an interrupted adaptation
resumes where it stopped instead of starting over.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from skullcam import Terminated
from skullcam.errors import UserError
from skullcam.files import write_atomic
from skullcam.vision.crop_dataset import (
    HIDDEN_IS_NONE_BELOW,
    CropSet,
    crops_from_detector,
    crops_from_scenes,
    merge,
    read_scene_index,
)
from skullcam.vision.enroll_messages import SaidText, spoken, spoken_count
from skullcam.vision.recognizer import CardDetector, ModelManifest
from skullcam.vision.training import (
    CHECKPOINT_FILE,
    CLASSIFIER_FILE,
    CORNER_CHECKPOINT_FILE,
    CORNER_FILE,
    DETECTOR_CHECKPOINT_FILE,
    DETECTOR_FILE,
)

Say = Callable[[str], None]
"""Where the adaptation says what it does: ``print`` on the command line. Its lines are
``enroll_messages.SaidText``, English text that keeps its message for the enrollment page."""


def validation_share(train_scenes: int) -> int:
    """Validation scenes to go with ``train_scenes``: an eighth, at least 20."""
    return max(20, train_scenes // 8)


@dataclass(frozen=True)
class AdaptPlan:
    """How much to generate and train. The defaults fit the 20-minute budget on 2 cores: by
    their epochs on a CPU with bfloat16, by ``minutes`` on one without (19.1 min on a 2-core
    float32 CPU).

    3,600 scenes, because training in bfloat16 makes the fine-tunes 1.8 x faster and buys the
    time for them: on the alt deck, 3,000 unseen scenes, 14.3 min, recall 98.36 % / precision
    99.48 %, where 2,400 scenes read 97.87 / 99.31 % (docs/enroll.md)."""

    train_scenes: int = 3600
    val_scenes: int = validation_share(3600)
    epochs: int = 12
    lr: float = 3e-3
    detector_epochs: int = 0
    """0 keeps the active model's detector as it is (and so does a model without its .pt).
    Off by default, because the shipped detector, trained on 9,700 scenes on a GPU,
    finds cards of a new deck's art as they are, and two CPU epochs on the enrolled deck's
    scenes made it worse on unseen scenes (alt deck, 1,000 scenes: recall 97.6 % with the
    fine-tune, 97.9 % without, 46 and 37 faces below 98 %); its 6 minutes go to the classifier.
    Those epochs ran at 0.002 whatever ``detector_lr`` said (ultralytics' "auto" optimiser);
    at a rate that takes effect, 2 epochs at 2e-4 (docs/enroll.md) read 2,000
    unseen scenes as the default does, for 6 minutes more."""
    detector_lr: float = 2e-3
    corner_epochs: int = 3
    """Fine-tune epochs of the base model's corner reader; 0 (or a base without one): the
    enrolled model reads without a corner reader."""
    minutes: float | None = 19.0
    """Time budget of the whole adaptation and its self-check; None: no budget. The classifier
    and corner-reader fine-tunes, most of the time, each end after their epochs or their share
    of the time left (:func:`fine_tune_budget`), whichever comes first, with their schedules
    run to the end either way. 12 classifier epochs take about 7 minutes on a CPU with
    bfloat16 instructions and 33 on one without, where the whole plan would take 44 minutes
    unbudgeted. The photo checks before it take seconds."""
    batch_size: int = 128
    crop_copies: int = 2
    workers: int = 2
    seed: int = 0
    progress: bool = True


def sized_plan(train_scenes: int, epochs: int, **rest: Any) -> AdaptPlan:
    """A plan of ``train_scenes`` scenes with the validation share that goes with it."""
    return AdaptPlan(
        train_scenes=train_scenes,
        val_scenes=validation_share(train_scenes),
        epochs=epochs,
        **rest,
    )


THOROUGH_PLAN = sized_plan(4800, 12, minutes=None)
"""The longer plan (``skullcam enroll --thorough``): a third more scenes than the default, and
every epoch whatever the time (on a CPU without bfloat16 that is most of an hour).
On the alt deck, 3,000 unseen scenes (docs/enroll.md): 18.2 min, recall 98.43 % /
precision 99.36 %, against the default's 14.3 min and 98.36 / 99.48 %: on that deck the gain
from more scenes stops near the default, so this is for a deck the default leaves short."""


def longer_plan(plan: AdaptPlan) -> AdaptPlan:
    """The plan to run again with when ``plan``'s model learned too little
    (``CheckResult.learned_too_little``): twice the scenes, half as many epochs again, and no
    time budget (on a CPU without bfloat16 the budget is what ends the epochs early); the
    detector and corner reader as before. The enrollment page's button runs it, and the
    command line names its flags. Each run again from the one before grows once more."""
    scenes = plan.train_scenes * 2
    return replace(
        plan,
        train_scenes=scenes,
        val_scenes=validation_share(scenes),
        epochs=math.ceil(plan.epochs * 1.5),
        minutes=None,
    )


def plan_of_record(args: object, like: AdaptPlan) -> AdaptPlan | None:
    """The plan an installed model's ``enroll.json`` names (:func:`training_args`), with
    ``like``'s process count and progress display; None where the record is not one this
    version reads (an older or damaged one)."""
    if not isinstance(args, dict):
        return None
    try:
        plan = AdaptPlan(**args, workers=like.workers, progress=like.progress)
    except TypeError:
        return None
    counts = (plan.train_scenes, plan.val_scenes, plan.epochs)
    return plan if all(isinstance(n, int) and n > 0 for n in counts) else None


def estimate_seconds(
    made: AdaptPlan, seconds: Mapping[str, object], epochs_run: object, then: AdaptPlan
) -> float | None:
    """About how long an adaptation with ``then`` and its self-check take on this machine,
    from the one ``made`` took: its ``seconds`` and classifier epochs run, as its enroll.json
    keeps them. None where those are missing.

    Each part is scaled by what it grows with: the stages before the fine-tune (scenes, crops)
    and after it (corner reader, exports) with the scenes, the classifier fine-tune with scenes
    x epochs at the pace it ran, the self-check half (its 500 test scenes stay; the corner
    weight is chosen on the validation scenes). A fine-tune the time budget cut short ran few
    corner-reader epochs too: the corner reader is then counted at its plan's epochs, each as
    long as a classifier epoch (bfloat16: 75 s for 3 against 296 s for 12; float32: 200 s an
    epoch against 165). A record without the parts (an older version's) counts all of the
    adaptation as fine-tune, which overestimates. Checked against measured runs on a 2-core
    bfloat16 CPU (docs/enroll.md): from the default plan's (adapt 800 s, self-check 58 s)
    it says 18.9 min for --thorough's 4,800 scenes, which took 18.2."""
    adapt, check = _seconds(seconds.get("adapt")), _seconds(seconds.get("check"))
    if adapt is None or check is None:
        return None
    epochs = _seconds(epochs_run) or made.epochs
    parts = ("before_fine_tune", "classifier", "after_fine_tune")
    before, classifier, after = (_seconds(seconds.get(part)) for part in parts)
    if before is None or classifier is None or after is None:
        before, classifier, after = 0.0, adapt, 0.0
    per_epoch = classifier / epochs
    if epochs < made.epochs and after and made.corner_epochs > 0:
        after = max(after, made.corner_epochs * per_epoch)
    if made.corner_epochs > 0:
        after *= max(then.corner_epochs, 1) / made.corner_epochs
    scale = (then.train_scenes + then.val_scenes) / (made.train_scenes + made.val_scenes)
    return scale * (before + per_epoch * then.epochs + after) + check * (1 + scale) / 2


def rounded_duration(seconds: float) -> tuple[str, float]:
    """An estimate as a person says it: ``("minutes", 35)`` to 5 minutes (5 at least) under
    an hour and a half, else ``("hours", 2.5)`` to half an hour. The page's button and the
    command line say the longer run's time the same way; a figure to the minute would
    promise a precision the estimate does not have."""
    minutes = seconds / 60
    if minutes < 90:
        return "minutes", max(5, 5 * round(minutes / 5))
    return "hours", round(minutes / 30) / 2


def _seconds(value: object) -> float | None:
    """A recorded count of seconds (or epochs), or None where it is not a positive number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return float(value)


@dataclass
class FineTuneResult:
    """What :func:`fine_tune` made, and how far the budget let it go."""

    model: Any
    val_accuracy: float
    budget: float | None  # the seconds it kept to (a resumed run: the ones it started with)
    epochs: float  # epochs run, a fraction where the budget ended one early
    spent: float = 0.0  # seconds of training, over every run of a resumed fine-tune
    before: float = 0.0  # seconds the stages before it took (a resumed one: when first run)

    def cut_short(self, plan: AdaptPlan) -> bool:
        return self.epochs < plan.epochs


@dataclass
class AdaptResult:
    checkpoint: Path  # card-classifier.pt
    onnx: Path  # card-classifier.onnx
    detector: Path  # card-detector.onnx: the adapted one, or the active model's
    detector_checkpoint: Path | None  # its card-detector.pt, when there is one
    val_accuracy: float
    seconds: float
    corner: Path | None = None  # corner-reader.onnx, when the corner reader was adapted too
    corner_checkpoint: Path | None = None  # its corner-reader.pt
    classifier_epochs: float | None = None  # epochs the classifier fine-tune ran
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds of its parts: ``before_fine_tune`` (scenes, crops), ``classifier`` and
    ``after_fine_tune`` (corner reader, exports), what :func:`estimate_seconds` scales."""


def _write_json_atomic(path: Path, data: object) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def _made_for(done: Path, wanted: dict[str, Any]) -> bool:
    """Whether a stage's ``done.json`` says it finished for exactly ``wanted`` (its inputs
    and plan): a stage made for other inputs, or cut off before it wrote the file, is made
    again."""
    return done.is_file() and json.loads(done.read_text()) == wanted


def generate_scenes(
    deck_dir: Path, out: Path, counts: dict[str, int], seed: int, workers: int, progress: bool
) -> Path:
    """Render ``counts`` scenes of the deck into ``out`` once; a finished set is kept as is."""
    from skullcam.datasets.dataset import write_scenes

    done = out / "done.json"
    wanted = {"counts": counts, "seed": seed, "deck": str(deck_dir)}
    if _made_for(done, wanted):
        return out
    if out.exists():
        shutil.rmtree(out)  # a half-written set from an interrupted run: redo it whole
    if workers <= 1:
        write_scenes(deck_dir, out, counts, seed=seed, workers=1, progress=progress)
    else:
        # The generator forks its workers. Forking a process that already runs ONNX Runtime,
        # torch or OpenCV thread pools (the photo checks and the self-check do) can deadlock
        # the children, so the rendering runs in a fresh interpreter.
        call_in_fresh_interpreter(
            "skullcam.vision.adapt:render_scenes_job",
            {
                "deck": str(deck_dir),
                "out": str(out),
                "counts": counts,
                "seed": seed,
                "workers": workers,
                "progress": progress,
            },
            f"rendering scenes of {deck_dir}",
        )
    _write_json_atomic(done, wanted)
    return out


def call_in_fresh_interpreter(target: str, kwargs: dict[str, object], what: str) -> None:
    """Run ``package.module:function(**kwargs)`` in a new Python process and wait for it.

    For work that forks helper processes (scene rendering, ultralytics' data loaders) while
    this process may already run thread pools (ONNX Runtime, torch, a web server): a fork of a
    threaded process can deadlock its children. Its output goes to this process's terminal.
    """
    module, function = target.split(":")
    # Ctrl-C reaches the job too (one terminal, one process group): it ends quietly with
    # status 130, leaving the one "interrupted" line to this process. A SIGTERM, which this
    # process passes on (it reached this one alone), ends it the same way; where it reached
    # both (systemd stops every process of a unit), the job hears the first and ignores the
    # second, which would break off its cleanup.
    code = (
        "import importlib, json, signal, sys\n"
        f"from skullcam.vision.adapt import exit_with_parent; exit_with_parent({os.getpid()})\n"
        "from skullcam import stop_once_as_interrupt\n"
        "signal.signal(signal.SIGTERM, stop_once_as_interrupt)\n"
        "try:\n"
        f"    getattr(importlib.import_module({module!r}), {function!r})"
        "(**json.loads(sys.argv[1]))\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(130)\n"
    )
    job = subprocess.Popen([sys.executable, "-c", code, json.dumps(kwargs)])
    try:
        returncode = job.wait()
    except KeyboardInterrupt as stop:
        if isinstance(stop, Terminated):  # a kill of this process: the job heard nothing
            job.terminate()
        _let_the_job_end(job)
        raise
    if returncode != 0:
        raise UserError(
            f"{what} failed (exit {returncode}, see above); run the same command again "
            "to go on from where it stopped"
        )


JOB_ENDS_WITHIN_S = 20.0
"""How long a job interrupted by Ctrl-C may take to end its helper processes."""


def _let_the_job_end(job: subprocess.Popen[bytes]) -> None:
    """Ctrl-C reached the job too (or the SIGTERM passed on to it): it is ending its helper
    processes, so wait for it (up to :data:`JOB_ENDS_WITHIN_S`; a second Ctrl-C stops
    waiting). ``subprocess.run`` killed it after a quarter of a second: on a busy machine
    before it had ended its pool, whose workers then slept on as orphans (holding the
    terminal's pipes open)."""
    try:
        job.wait(timeout=JOB_ENDS_WITHIN_S)
    except (subprocess.TimeoutExpired, KeyboardInterrupt):
        job.kill()
        job.wait()


def exit_with_parent(parent: int, every_s: float = 1.0) -> None:
    """In a job started by ``call_in_fresh_interpreter``: end, with the helper processes it
    forked, once ``parent`` (the process that started it) is gone. Killed with kill -9
    mid-enrollment, that process left the scene renderer writing on into a folder the next run
    deletes. The starter passes its own pid rather than the job reading ``os.getppid()``
    here: on a busy machine the starter can die while the job is still importing, and the job
    would then watch the process that adopted it."""
    import multiprocessing
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        for child in multiprocessing.active_children():
            child.terminate()
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def render_scenes_job(
    deck: str, out: str, counts: dict[str, int], seed: int, workers: int, progress: bool
) -> None:
    """:func:`generate_scenes`' rendering, as run in a fresh interpreter."""
    from skullcam.datasets.dataset import write_scenes

    write_scenes(Path(deck), Path(out), counts, seed=seed, workers=workers, progress=progress)


def train_detector_job(
    data_yaml: str,
    project: str,
    epochs: int,
    imgsz: int,
    workers: int,
    resume: bool,
    init: str,
    lr: float,
) -> None:
    """:func:`adapt_detector`'s fine-tune, as run in a fresh interpreter."""
    from skullcam.vision.train_detector import train_detector

    train_detector(
        Path(data_yaml),
        Path(project),
        epochs=epochs,
        imgsz=imgsz,
        workers=workers,
        resume=resume,
        patience=epochs + 1,
        init=Path(init),
        extra={"lr0": lr},
    )


def _cached(cache: Path, classes: tuple[str, ...], cut: Callable[[], CropSet]) -> CropSet:
    """Crops cut once and cached as ``.npz`` (cutting is the slow part of a resumed run)."""
    if cache.is_file():
        with np.load(cache) as data:
            return CropSet(data["images"], data["labels"], classes)
    crops = cut()
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, images=crops.images, labels=crops.labels)
    os.replace(tmp, cache)
    return crops


OLD_CROP_CACHE = re.compile(
    r"crops_(train|val|detector(-[0-9a-f]{12}(-hidden[0-9.]+)?)?)(\.tmp)?\.npz"
)
"""The names of the crop caches that older versions kept in the work folder,
beside its scenes, and under every name they had (the detector's crops were named by its
weights, then by the labelling rule too). Caches now live inside the scenes' folder."""


def remove_old_crop_caches(work_dir: Path) -> list[Path]:
    """Delete the crop caches an older version left in ``work_dir`` (an enrollment's
    ``adapt`` folder); the paths removed. Nothing reads them any more, and they stayed until
    the folder went: those of the true outlines alone take about 145 kB a scene, 0.5 GB for
    the default plan's 3,600. Only regular files named as those caches were, at the folder's
    top: the scenes, the fine-tune's state and anything else are left alone, and the
    enrollment's photos are not in this folder at all."""
    if not work_dir.is_dir():
        return []
    removed = []
    for path in sorted(work_dir.iterdir()):
        if OLD_CROP_CACHE.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink()
            removed.append(path)
    return removed


def _crops(
    dataset: Path, split: str, cache: Path, classes: tuple[str, ...], **kw: object
) -> CropSet:
    """Crops of one split on the true card outlines, cached."""
    from tqdm import tqdm

    progress = bool(kw.pop("progress", True))

    def cut() -> CropSet:
        scenes = read_scene_index(dataset, split)
        return crops_from_scenes(
            tqdm(scenes, desc=f"crops ({split})", unit="scene", disable=not progress),
            classes,
            **kw,  # type: ignore[arg-type]
        )

    return _cached(cache, classes, cut)


def _detector_crops(
    dataset: Path,
    split: str,
    cache: Path,
    manifest: ModelManifest,
    detector_onnx: Path,
    classes: tuple[str, ...],
    progress: bool,
) -> CropSet:
    """Crops cut where the detector the new model will use puts its boxes, cached.

    Its boxes sit on the cards with their own small misalignments; a classifier that has seen
    only true outlines reads those worse (alt deck: 97.1 % on true outlines, about 94 % in the
    pipeline before these crops were added).
    """
    from tqdm import tqdm

    def cut() -> CropSet:
        detector = CardDetector.from_manifest(replace(manifest, folder=detector_onnx.parent))
        scenes = read_scene_index(dataset, split)
        return crops_from_detector(
            tqdm(scenes, desc=f"detector crops ({split})", unit="scene", disable=not progress),
            classes,
            lambda frame: detector(frame)[0],
        )

    return _cached(cache, classes, cut)


def adapt_detector(
    scenes: Path, base_model: Path, work_dir: Path, plan: AdaptPlan, say: Say = print
) -> tuple[Path, Path | None]:
    """Fine-tune the base detector on the deck's scenes; (ONNX, .pt) of the detector to use.

    The base model's own detector is returned unchanged when the plan asks for no detector
    epochs or the base has no ultralytics weights to start from (models from before these were
    kept). A finished fine-tune is kept; an interrupted one resumes from its last epoch.
    """
    manifest = ModelManifest.read(base_model)
    base_onnx = base_model / manifest.detector
    init = base_model / DETECTOR_CHECKPOINT_FILE
    if plan.detector_epochs <= 0:
        return base_onnx, init if init.is_file() else None
    if not init.is_file():
        say(spoken("log_detector_kept", model=base_model, file=DETECTOR_CHECKPOINT_FILE))
        return base_onnx, None
    out = work_dir / "detector"
    onnx, weights, done = out / DETECTOR_FILE, out / DETECTOR_CHECKPOINT_FILE, out / "done.json"
    # The scenes it learns from count too: a set rendered again for another plan is new data.
    wanted = {
        "init": str(init),
        "epochs": plan.detector_epochs,
        "lr": plan.detector_lr,
        "scenes": json.loads((scenes / "done.json").read_text()),
    }
    if _made_for(done, wanted) and onnx.is_file():
        return onnx, weights
    import torch

    from skullcam.vision.train_detector import export_detector

    runs = work_dir / "detector_runs"
    last = runs / "detector" / "weights" / "last.pt"
    plan_file = runs / "plan.json"
    # A run made for this plan is finished or resumed; one for another plan is started again.
    # ultralytics marks a finished run's weights with epoch -1.
    same_plan = (
        last.is_file() and plan_file.is_file() and json.loads(plan_file.read_text()) == wanted
    )
    resume = (
        same_plan
        and torch.load(last, map_location="cpu", weights_only=False).get("epoch", -1) != -1
    )
    finished = same_plan and not resume
    if not finished:
        say(
            spoken_count(
                "log_detector_resuming" if resume else "log_detector",
                plan.detector_epochs,
                scenes=plan.train_scenes,
            )
        )
        runs.mkdir(parents=True, exist_ok=True)
        if not resume:
            _write_json_atomic(plan_file, wanted)
        call_in_fresh_interpreter(
            "skullcam.vision.adapt:train_detector_job",
            {
                "data_yaml": str(scenes / "data.yaml"),
                "project": str(runs),
                "epochs": plan.detector_epochs,
                "imgsz": max(manifest.detector_input),
                "workers": plan.workers,
                "resume": resume,
                "init": str(init),
                "lr": plan.detector_lr,
            },
            "fine-tuning the card detector",
        )
    best = runs / "detector" / "weights" / "best.pt"
    best = best if best.is_file() else last
    out.mkdir(parents=True, exist_ok=True)
    export_detector(best, onnx, manifest.detector_input)
    shutil.copyfile(best, weights)
    _write_json_atomic(done, wanted)
    return onnx, weights


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _fine_tune_inputs(train: CropSet, val: CropSet, init_checkpoint: Path) -> str:
    """A fingerprint of what a saved fine-tune state was trained on.

    A state is resumed only onto the very crops and starting weights it was made from: the
    crop count alone would let an upgrade that cuts other crops (or another base model)
    silently continue a run on data it never started with.
    """
    import hashlib

    h = hashlib.blake2b(digest_size=16)
    for crops in (train, val):
        h.update(crops.images.tobytes())
        h.update(crops.labels.tobytes())
    h.update(_digest(init_checkpoint).encode())
    return h.hexdigest()


def training_args(plan: AdaptPlan) -> dict[str, object]:
    """The plan fields that shape the classifier fine-tune (not the display or process count;
    the detector's fields count through the crops it cuts)."""
    args = asdict(plan)
    for key in ("progress", "workers"):
        args.pop(key)
    return args


CHECK_SHARE = 0.5
"""The work outside the two fine-tunes after they start (the corner patches cut between them,
exports, test scenes, corner weight, self-check) takes about this share of the time the
stages before them took (scenes, crops): both grow with the scene counts and shrink with the
machine's speed. On a 2-core float32 CPU, the default plan: 280 s before, 144 s of such work
after (0.51; at 0.3 the enrollment took 20.2 minutes; docs/enroll.md)."""

CLASSIFIER_SHARE = 0.75
"""The classifier's part of the time left for fine-tuning; the corner reader has the rest.
Their whole epochs take about 3 to 1 (12 classifier epochs against 3 of the corner reader: 33
and 10 minutes on a 2-core CPU in float32)."""

MIN_FINE_TUNE_SECONDS = 120.0
"""The least a budgeted classifier fine-tune gets, however late the stages before it end: a
machine too slow for the budget still gets an adapted classifier, later than promised."""


def fine_tune_budget(plan: AdaptPlan, spent: float) -> float | None:
    """Seconds of classifier fine-tune that end the adaptation, ``spent`` seconds in, within
    ``plan.minutes``; None when the plan has no budget. The corner reader's share follows
    from it (:func:`corner_budget`)."""
    if plan.minutes is None:
        return None
    left = plan.minutes * 60 - spent * (1 + CHECK_SHARE)
    return max(MIN_FINE_TUNE_SECONDS, left * CLASSIFIER_SHARE)


def corner_budget(classifier_budget: float | None) -> float | None:
    """The corner reader's fine-tune budget that goes with the classifier's: derived from it,
    not from the clock, so a resumed adaptation (its stages before cached, taking no time)
    keeps the split it started with."""
    if classifier_budget is None:
        return None
    return classifier_budget * (1 - CLASSIFIER_SHARE) / CLASSIFIER_SHARE


def fine_tune(
    train: CropSet,
    val: CropSet,
    init_checkpoint: Path,
    state_path: Path,
    plan: AdaptPlan,
    seconds: float | None = None,
    announce: Callable[[float | None], None] | None = None,
    before: float = 0.0,
) -> FineTuneResult:
    """``train_classifier``'s recipe from ``init_checkpoint``, resumable per epoch.

    Enrollment needs three things ``train_classifier`` does not do: a per-batch progress bar
    whose time-left estimate covers the whole fine-tune, the complete state (weights,
    optimiser, schedule, epoch, time spent) saved after each epoch to ``state_path``, and an
    end at ``plan.epochs`` or after ``seconds`` of training, whichever comes first. The
    one-cycle schedule follows whichever is further along, so a fine-tune cut short by the
    clock still ends at its lowest rate. A resumed fine-tune keeps the budget it started
    with: its schedule was laid out for it, and the stages before it, cached, now take no
    time to make it any larger. ``announce`` is told the budget kept, before the first batch:
    the one offered is not what a resumed fine-tune keeps to. ``before``, the seconds the
    stages before it took, is kept the same way: resumed, those stages were cached and took
    none, and the estimate of a longer run (:func:`estimate_seconds`) needs what they cost.
    """
    import torch
    from tqdm import tqdm

    from skullcam.vision.train_classifier import (
        CLOCK_STEPS,
        course_share,
        evaluate,
        follow_share,
        load_checkpoint,
        one_cycle,
        train_epoch,
        uint8_tensor,
    )

    model, base_classes = load_checkpoint(init_checkpoint)
    if tuple(base_classes) != tuple(train.classes):
        raise UserError(
            f"the active model's classifier ({init_checkpoint}) has other classes than this "
            "version of skullcam; reinstall skullcam to restore the shipped model"
        )
    torch.manual_seed(plan.seed)
    gen = torch.Generator().manual_seed(plan.seed)
    cpu = torch.device("cpu")
    x_train, y_train = uint8_tensor(train.images, cpu), torch.from_numpy(train.labels)
    x_val, y_val = uint8_tensor(val.images, cpu), torch.from_numpy(val.labels)
    steps_per_epoch = math.ceil(len(y_train) / plan.batch_size)
    total_steps = plan.epochs * steps_per_epoch
    optimizer, schedule = one_cycle(model, plan.lr, CLOCK_STEPS)
    epoch, steps, accuracy, spent, finished = 0, 0, 0.0, 0.0, False
    inputs = _fine_tune_inputs(train, val, init_checkpoint)
    if state_path.is_file():
        saved = torch.load(state_path, map_location="cpu", weights_only=False)
        if saved.get("plan") == training_args(plan) and saved.get("inputs") == inputs:
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            schedule.load_state_dict(saved["schedule"])
            gen.set_state(saved["generator"])
            epoch, accuracy = int(saved["epoch"]), float(saved["accuracy"])
            # A state of an earlier version, without these, has another plan: never here.
            spent, seconds = float(saved["seconds"]), saved["budget"]
            before = float(saved.get("before", before))  # an older version's state: none
            finished, steps = bool(saved["finished"]), int(saved["steps"])
    if announce is not None:
        announce(seconds)
    bar = tqdm(
        total=total_steps,
        initial=steps,
        desc="fine-tuning",
        unit="batch",
        disable=not plan.progress,
    )
    while not finished and epoch < plan.epochs:
        origin = time.perf_counter() - spent  # when this fine-tune would have begun, unbroken

        def after_step(loss: float, epoch: int = epoch, origin: float = origin) -> bool:
            nonlocal steps, finished
            steps += 1
            share = course_share(steps, total_steps, time.perf_counter() - origin, seconds)
            if seconds:
                # The batches the budget leaves room for, at this pace: the bar's (and the
                # enrollment page's) time left then counts down to the budget's end.
                bar.total = min(total_steps, max(steps, round(steps / share)))
            bar.update(1)
            bar.set_postfix(epoch=f"{epoch + 1}/{plan.epochs}", loss=f"{loss:.3f}")
            finished = follow_share(schedule, share)
            return finished

        train_epoch(model, x_train, y_train, plan.batch_size, optimizer, gen, after_step)
        spent = time.perf_counter() - origin
        epoch += 1
        finished = finished or epoch >= plan.epochs
        accuracy = evaluate(model, x_val, y_val)
        bar.set_postfix(epoch=f"{epoch}/{plan.epochs}", val_acc=f"{accuracy:.4f}")
        tmp = state_path.with_suffix(".tmp")
        torch.save(
            {
                "plan": training_args(plan),
                "inputs": inputs,
                "epoch": epoch,
                "steps": steps,
                "accuracy": accuracy,
                "seconds": spent,
                "budget": seconds,
                "before": before,
                "finished": finished,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "schedule": schedule.state_dict(),
                "generator": gen.get_state(),
            },
            tmp,
        )
        os.replace(tmp, state_path)
    bar.close()
    model.eval()
    return FineTuneResult(model, accuracy, seconds, steps / steps_per_epoch, spent, before)


def adapt_recognizer(
    deck_dir: Path,
    base_model: Path,
    work_dir: Path,
    plan: AdaptPlan,
    say: Say = print,
) -> AdaptResult:
    """Scenes of ``deck_dir`` -> fine-tuned detector in ``work_dir/detector/`` -> crops ->
    fine-tuned classifier in ``work_dir/classifier/``."""
    from skullcam.vision.train_classifier import export_classifier, save_checkpoint
    from skullcam.vision.training import CLASSES

    start = time.perf_counter()
    init = base_model / CHECKPOINT_FILE
    if not init.is_file():
        raise UserError(
            f"the active model at {base_model} has no {CHECKPOINT_FILE} to fine-tune from; "
            "activate a model that has one (skullcam enroll --list) or reinstall skullcam"
        )
    work_dir.mkdir(parents=True, exist_ok=True)
    say(spoken("log_rendering", n=plan.train_scenes + plan.val_scenes))
    scenes = generate_scenes(
        deck_dir,
        work_dir / "scenes",
        {"train": plan.train_scenes, "val": plan.val_scenes},
        seed=plan.seed,
        workers=plan.workers,
        progress=plan.progress,
    )
    detector_onnx, detector_pt = adapt_detector(scenes, base_model, work_dir, plan, say)
    say(spoken("log_crops"))
    # The crop caches are kept in the scenes' folder, which a set rendered again (another
    # --scenes, as a failed self-check advises) replaces whole: beside it, the next run would
    # fine-tune on the crops of the scenes before.
    train = _crops(
        scenes,
        "train",
        scenes / "crops_train.npz",
        CLASSES,
        copies=plan.crop_copies,
        seed=plan.seed + 1,
        progress=plan.progress,
    )
    val = _crops(
        scenes,
        "val",
        scenes / "crops_val.npz",
        CLASSES,
        copies=1,
        seed=plan.seed + 2,
        jitter=0.5,
        progress=plan.progress,
    )
    say(spoken("log_detector_crops"))
    detected = _detector_crops(
        scenes,
        "train",
        # Named by the detector's weights and the labelling rule: crops of an earlier detector,
        # or labelled by an earlier version of skullcam, are not reused.
        scenes / f"crops_detector-{_digest(detector_onnx)}-hidden{HIDDEN_IS_NONE_BELOW}.npz",
        ModelManifest.read(base_model),
        detector_onnx,
        CLASSES,
        plan.progress,
    )
    train = merge(train, detected)
    before = time.perf_counter() - start
    budget = fine_tune_budget(plan, before)
    state = work_dir / "finetune_state.pt"
    # Said with the budget the fine-tune keeps: resumed, the one it started with, not this
    # one, which the cached stages before it leave larger.
    tuned = fine_tune(
        train,
        val,
        init,
        state,
        plan,
        budget,
        announce=lambda kept: say(
            _fine_tune_line("log_classifier", plan.epochs, kept, crops=len(train))
        ),
        before=before,
    )
    after = time.perf_counter()
    if tuned.cut_short(plan):
        say(cut_short_line(tuned.epochs, plan.epochs))
    out = work_dir / "classifier"
    out.mkdir(exist_ok=True)
    export_classifier(tuned.model, out / CLASSIFIER_FILE)
    save_checkpoint(tuned.model, CLASSES, out / CHECKPOINT_FILE)
    corner = adapt_corner_reader(scenes, base_model, out, plan, say, corner_budget(tuned.budget))
    seconds = time.perf_counter() - start
    return AdaptResult(
        checkpoint=out / CHECKPOINT_FILE,
        onnx=out / CLASSIFIER_FILE,
        detector=detector_onnx,
        detector_checkpoint=detector_pt,
        val_accuracy=tuned.val_accuracy,
        seconds=seconds,
        corner=out / CORNER_FILE if corner else None,
        corner_checkpoint=out / CORNER_CHECKPOINT_FILE if corner else None,
        classifier_epochs=round(tuned.epochs, 2),
        timings={
            "before_fine_tune": tuned.before,
            "classifier": tuned.spent,
            # The corner reader and exports: they start over when resumed, so the clock since
            # this run's own classifier fine-tune ended (its cached epochs took none of it).
            "after_fine_tune": time.perf_counter() - after,
        },
    )


def cut_short_line(done: float, epochs: int) -> SaidText:
    """The line that says the time budget stopped the classifier's fine-tune after ``done``
    of its ``epochs``: "0.6 of its 1 epoch", "1 of its 3 epochs"."""
    return spoken_count("log_classifier_cut", epochs, done=round(done, 1))


def _fine_tune_line(key: str, epochs: int, seconds: float | None, **counts: int) -> SaidText:
    """The progress line of a fine-tune: its epochs, and its budget when it has one."""
    if seconds is None:
        return spoken_count(key, epochs, **counts)
    return spoken_count(f"{key}_budget", epochs, minutes=round(seconds / 60, 1), **counts)


def adapt_corner_reader(
    scenes: Path,
    base_model: Path,
    out: Path,
    plan: AdaptPlan,
    say: Say,
    seconds: float | None = None,
) -> bool:
    """Fine-tune the base model's corner reader on the enrolled deck's corner marks, into
    ``out``, for its epochs or ``seconds``, whichever ends first; False (nothing written) when
    the plan or the base model has none to adapt."""
    from tqdm import tqdm

    from skullcam.vision.corner_net import CornerReaderNet
    from skullcam.vision.crop_dataset import corner_patches_from_scenes
    from skullcam.vision.train_classifier import load_checkpoint
    from skullcam.vision.training import (
        CLASSES,
        CORNER_LR,
        fit_corner_reader,
        save_corner_reader,
    )

    init_path = base_model / CORNER_CHECKPOINT_FILE
    # The base must read with a corner reader, not merely hold an old one's weights.
    has_reader = ModelManifest.read(base_model).corner_reader is not None
    if plan.corner_epochs <= 0 or not has_reader or not init_path.is_file():
        return False
    init, classes = load_checkpoint(init_path, CornerReaderNet)
    if classes != CLASSES:
        init.replace_head(len(CLASSES))
    train = corner_patches_from_scenes(
        tqdm(
            read_scene_index(scenes, "train"),
            desc="corner patches",
            unit="scene",
            disable=not plan.progress,
        ),
        CLASSES,
        seed=plan.seed + 5,
    )
    val = corner_patches_from_scenes(
        read_scene_index(scenes, "val"), CLASSES, copies=1, seed=plan.seed + 6
    )
    say(_fine_tune_line("log_corner_reader", plan.corner_epochs, seconds, patches=len(train)))
    # A fine-tune: a third of the from-scratch rate.
    result = fit_corner_reader(
        train, val, plan.corner_epochs, CORNER_LR / 3, init, plan.progress, at_most=seconds
    )
    save_corner_reader(result.model, out)
    return True

"""``skullcam enroll``: teach skullcam a physical deck, from a folder of photos or the camera.

With ``--from DIR`` the photos are checked one by one (any problem is listed per file and the
good ones are kept, so the next run only looks at the fixed photos), then the classifier is
adapted and the new model activated. Without it, a web page guides a camera enrollment.
``--list`` and ``--activate`` choose among the shipped and enrolled models.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from skullcam.cli import add_data_argument, port_number, table_pin
from skullcam.counts import agreeing, counted
from skullcam.errors import UserError
from skullcam.rules import FACES

if TYPE_CHECKING:  # at run time adapt is imported only when a plan is made (see _plan)
    from skullcam.vision.adapt import AdaptPlan
    from skullcam.vision.enroll import EnrollOutcome


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "enroll",
        help="learn your own deck from photos (or the camera) and make it the active model",
        description=f"Learn a physical deck: one photo or scan per face ({len(FACES)}; escape and "
        "loot once each), named <card-id>.jpg or .png, any orientation and background. The card "
        "is found and rectified in each photo, the face classifier is adapted to the deck on "
        "this machine's CPU, checked on generated test scenes, and the new model becomes the "
        "active one for detect, replay and run. Interrupted runs resume. Without --from, a "
        "web page guides you through the faces with the camera.",
    )
    # One task a run: given two, all but one would be dropped unsaid ('--activate x --from
    # DIR' would activate x and enroll nothing).
    task = parser.add_mutually_exclusive_group()
    task.add_argument("--from", dest="source", type=Path, help="folder of face photos")
    parser.add_argument(
        "--name", default="my-deck", help="name of the enrolled deck (default my-deck)"
    )
    task.add_argument("--list", action="store_true", help="list the models you can activate")
    task.add_argument(
        "--activate", metavar="NAME", help="make NAME (from --list, or 'shipped') the active model"
    )
    parser.add_argument(
        "--camera", default="picamera", help="camera for the web enrollment (default: picamera)"
    )
    parser.add_argument(
        "--host",
        default="0.0.0.0",
        help="web enrollment address (default 0.0.0.0: every interface, so a phone can hold"
        " the card)",
    )
    parser.add_argument("--port", type=port_number, default=8001, help="web enrollment port (8001)")
    parser.add_argument(
        "--pin",
        type=table_pin,
        default=None,
        help="PIN phones must give beyond localhost (default: the table's, kept in the data "
        "folder, as skullcam run uses)",
    )
    parser.add_argument(
        "--trust-names",
        action="store_true",
        help="skip the check that each photo looks like the card its name says",
    )
    parser.add_argument(
        "--thorough",
        action="store_true",
        help="the longer plan: 4800 scenes instead of 3600, and every epoch whatever the time "
        "(about 18 min on a 2-core PC with bfloat16 instructions, most of an hour without); on "
        "the test deck it read about as well as the default",
    )
    parser.add_argument(
        "--minutes",
        type=float,
        help="time budget of the adaptation and its self-check (default 19; 0: none): the "
        "classifier fine-tune stops early when its epochs would not fit",
    )
    parser.add_argument(
        "--scenes", type=int, help="training scenes to render (default 3600; --thorough 4800)"
    )
    parser.add_argument("--epochs", type=int, help="classifier fine-tuning epochs (default 12)")
    parser.add_argument(
        "--detector-epochs",
        type=int,
        default=0,
        help="detector fine-tuning epochs (default 0: keep the active model's detector, which "
        "did better on unseen scenes than fine-tuned; about 2.5 min an epoch)",
    )
    parser.add_argument(
        "--corner-epochs",
        type=int,
        help="corner reader fine-tuning epochs (default 3; 0: the enrolled model "
        "reads without one)",
    )
    parser.add_argument(
        "--test-scenes", type=int, default=500, help="self-check scenes (default 500)"
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="scene rendering processes (default 2)"
    )
    add_data_argument(parser)
    parser.set_defaults(func=_run)


def _plan(args: argparse.Namespace) -> AdaptPlan:
    """The adaptation plan: the default or ``--thorough`` one, then any --scenes/--epochs."""
    from skullcam.vision.adapt import THOROUGH_PLAN, AdaptPlan, sized_plan

    base = THOROUGH_PLAN if args.thorough else AdaptPlan()
    counts = {
        "scenes": base.train_scenes if args.scenes is None else args.scenes,
        "epochs": base.epochs if args.epochs is None else args.epochs,
        "test_scenes": args.test_scenes,
        "workers": args.workers,
    }
    for flag, value in counts.items():
        if value < 1:
            raise UserError(f"--{flag.replace('_', '-')} must be at least 1")
    if args.detector_epochs < 0:
        raise UserError("--detector-epochs must be 0 (keep the detector) or more")
    corner_epochs = base.corner_epochs if args.corner_epochs is None else args.corner_epochs
    if corner_epochs < 0:
        raise UserError("--corner-epochs must be 0 (no corner reader) or more")
    minutes = base.minutes if args.minutes is None else args.minutes or None
    if minutes is not None and not 0 < minutes < math.inf:
        raise UserError("--minutes must be a number of minutes, or 0 for no time budget")
    return sized_plan(
        counts["scenes"],
        counts["epochs"],
        detector_epochs=args.detector_epochs,
        corner_epochs=corner_epochs,
        workers=args.workers,
        minutes=minutes,
    )


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _load_problem(folder: Path) -> str | None:
    """Why the model in ``folder`` would not load (a damaged or missing file, a bad manifest),
    or None: ``--activate`` refuses such a model, so the list says so before it is chosen."""
    from skullcam.vision.recognizer import ModelManifest, Recognizer

    try:
        Recognizer(ModelManifest.read(folder), threads=1)
    except UserError as err:
        return str(err)
    return None


def _run(args: argparse.Namespace) -> int:
    data: Path = args.data
    if args.list:
        from skullcam.vision.enrolled_models import list_models

        rows = list_models(data)
        for row in rows:
            mark = "*" if row["active"] else " "
            check = f"  ({row['check']})" if row["check"] else ""
            missing = "" if row["complete"] else "  (not installed)"
            broken = _load_problem(Path(str(row["path"]))) if row["complete"] else None
            if broken is not None:  # listed, so it can be found and removed, but said plainly
                missing = f"  (cannot be used: {broken})"
            print(f"{mark} {row['name']}{missing}{check}")
        if not any(row["active"] for row in rows):
            from skullcam.vision.recognizer import active_model_dir

            try:
                active_model_dir(data)
            except UserError as err:
                print(f"no active model: {err}", file=sys.stderr)
        return 0
    if args.activate is not None:
        from skullcam.vision.enrolled_models import activate

        folder = activate(data, args.activate)
        print(f"active model: {args.activate} ({folder})")
        return 0
    if args.source is None:
        from skullcam.device.enroll_web import serve

        _warn_without_training_stack(args.data / "enroll" / args.name / "faces")
        return serve(args, _plan(args))
    return _enroll_folder(args)


def _warn_without_training_stack(photos: Path) -> None:
    """Said before the first photo, not after the 69th: the guided page photographs every face
    and only its last step, the adaptation, needs torch and onnx (a Pi's runtime install has
    neither). The photos are kept, so the table may go on and adapt later or elsewhere."""
    import importlib.util

    missing = [name for name in ("torch", "onnx") if importlib.util.find_spec(name) is None]
    if missing:
        _say(
            f"warning: {' and '.join(missing)} not installed: the photos you take are kept in "
            f"{photos}, but adapting the recognizer to them needs the training stack (docs/pi.md,"
            " 'Enrolling on the Pi'); or copy that folder to a machine that has it and run "
            "skullcam enroll --from FOLDER there"
        )


def _enroll_folder(args: argparse.Namespace) -> int:
    from skullcam.vision.enroll import (
        Enrollment,
        adapt_and_install,
        collect_from_folder,
        onnx_detector,
        onnx_face_classifier,
    )
    from skullcam.vision.enrolled_models import MIN_ACTIVATE_ACCURACY, passed_with_plan
    from skullcam.vision.recognizer import active_model_dir

    plan = _plan(args)
    if not args.source.is_dir():
        raise UserError(
            f"{args.source} is not a folder: give the folder holding one photo per face"
        )
    enrollment = Enrollment.open(args.data, args.name, hold=True)
    if enrollment.rebuilt is not None:
        _say(str(enrollment.rebuilt))
    base = active_model_dir(args.data)
    if not (base / "recognizer.json").is_file():
        raise UserError(
            f"enrollment adapts the active recognizer, and none is installed ({base} has no "
            "model): reinstall skullcam, or make a model active with skullcam enroll --activate"
        )
    classify = None if args.trust_names else onnx_face_classifier(base)
    try:
        detector = onnx_detector(base)
    except UserError:
        detector = None  # the outline search alone still works
    _say(f"enrolling deck '{args.name}' from {args.source}")
    before = dict(enrollment.faces)
    problems = collect_from_folder(enrollment, args.source, classify, detector, say=_say)
    models = args.data / "models"
    if (
        not problems
        and enrollment.faces == before
        and enrollment.stage == "done"
        and enrollment.model
        and passed_with_plan(models / enrollment.model, plan)
    ):
        # "make it active with --activate X" read as if X were not, where it was.
        active = base.resolve() == (models / enrollment.model).resolve()
        then = (
            "it is the active model"
            if active
            else f"make it active with: skullcam enroll --activate {enrollment.model}"
        )
        done = f"deck '{args.name}' is already enrolled from these photos as {enrollment.model}"
        print(f"{done}; {then}")
        return 0
    if problems:
        # The error line stands alone (a program keeps the last line of stderr): it names
        # the first problem, cut short, and counts the rest, listed above it.
        first = problems[0] if len(problems[0]) <= 160 else problems[0][:159] + "…"
        if first != problems[0] or len(problems) > 1:
            for line in problems:
                _say(f"  {line}")
        more = (
            f" (and {counted(len(problems) - 1, 'more problem')} above)"
            if len(problems) > 1
            else ""
        )
        trust = (
            "; --trust-names skips the looks-like check"
            if any("looks like" in line for line in problems)
            else ""
        )
        good = len(enrollment.faces)
        raise UserError(
            f"{first}{more}; fix {'them' if len(problems) > 1 else 'it'} and run the same "
            f"command again ({counted(good, 'good face')} {agreeing(good, 'is', 'are')} kept"
            f"{trust})"
        )
    outcome = adapt_and_install(enrollment, plan, test_scenes=args.test_scenes, say=_say)
    check = outcome.check
    print(f"self-check: {check.sentence()}")
    print(
        f"  precision {check.precision:.1%}, recall {check.recall:.1%}; classifier alone on "
        f"the true card outlines {check.classifier_accuracy:.1%}"
    )
    weakest = ", ".join(f"{f} P={p:.2f} R={r:.2f}" for f, p, r in check.weakest())
    print(f"  weakest cards: {weakest}")
    retake = check.faces_to_retake()
    if check.learned_too_little():
        # A model that learned too little reads many faces badly: the cure is a longer run,
        # not a list of 20 photos to retake of faces the longer run would learn.
        print(
            f"  {len(retake)} faces are named right on under half of their cards: too many for "
            "bad photos; the model learned too little: run the same command again with more "
            f"--scenes and --epochs: {_longer_flags(plan)} (twice the scenes, half as many "
            f"epochs again, no time budget{_longer_time(plan, outcome)})"
        )
    elif retake:
        print(
            f"  retake the photos of {', '.join(retake)}: the self-check names "
            f"{'it' if len(retake) == 1 else 'them'} right on under half of their cards (a photo "
            "cut off at the edge, of another card, or blurred?), then run the same command again"
        )
    if outcome.activated:
        print(f"active model: {outcome.model_dir.name} (the previous one: skullcam enroll --list)")
        return 0
    then = (
        f"run the same command again with {_longer_flags(plan)}"
        if check.learned_too_little()
        else "retake the weakest faces or run again with more --scenes/--epochs"
    )
    raise UserError(
        f"the adapted classifier names only {check.classifier_accuracy:.1%} of the test cards"
        f" right on their true outlines ({MIN_ACTIVATE_ACCURACY:.0%} activates a model), so it"
        f" was kept ({outcome.model_dir.name}) but not activated; {then}"
    )


def _longer_flags(plan: AdaptPlan) -> str:
    """The flags of the longer run after ``plan`` (``adapt.longer_plan``): the page's button
    and the command line say the same run."""
    from skullcam.vision.adapt import longer_plan

    longer = longer_plan(plan)
    return f"--scenes {longer.train_scenes} --epochs {longer.epochs} --minutes 0"


def _longer_time(plan: AdaptPlan, outcome: EnrollOutcome) -> str:
    """About how long that run takes here, worked out from the one just done (as the page's
    button says it): with no time budget a user must know whether to wait or come back."""
    from skullcam.vision.adapt import estimate_seconds, longer_plan, rounded_duration

    seconds = estimate_seconds(plan, outcome.seconds, outcome.classifier_epochs, longer_plan(plan))
    if seconds is None:
        return ""
    unit, amount = rounded_duration(seconds)
    return f": about {amount:g} {unit} on this machine"

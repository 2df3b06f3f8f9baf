"""Writing scenes as an ultralytics OBB dataset, in parallel and reproducibly.

Layout (docs/architecture.md)::

    OUT/images/{train,val,test}/<split>_000000.jpg
    OUT/labels/{train,val,test}/<split>_000000.txt   # "0 x1 y1 x2 y2 x3 y3 x4 y4", normalized
    OUT/labels/{train,val,test}/scenes.jsonl          # one JSON object per scene, in index order
    OUT/data.yaml                                     # absolute path:, names {0: card}

Scene ``i`` of split ``s`` is rendered from ``SeedSequence([seed, s, i])``, so the output is the
same for any number of workers, and no two scenes (within or across splits) share a seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from skullcam.datasets.deck import load_deck
from skullcam.datasets.scenes import (
    PreparedDeck,
    SceneConfig,
    label_lines,
    obb_line,
    prepare,
    render_scene,
)
from skullcam.errors import UserError
from skullcam.files import write_atomic
from skullcam.parallel import worker_pool

SPLITS = ("train", "val", "test")
_SPLIT_CODE = {"train": 0, "val": 1, "test": 2}


def scene_rng(seed: int, split: str, index: int) -> np.random.Generator:
    """The generator of one scene: independent of worker count and of the other scenes."""
    return np.random.default_rng(np.random.SeedSequence([seed, _SPLIT_CODE[split], index]))


def split_counts(count: int, val_fraction: float, test_fraction: float) -> dict[str, int]:
    """How many scenes each split gets (val and test rounded, train the rest)."""
    if count < 1:
        raise UserError(f"--count must be at least 1, got {count}")
    for name, frac in (("--val-fraction", val_fraction), ("--test-fraction", test_fraction)):
        if not 0.0 <= frac < 1.0:
            raise UserError(f"{name} must be in [0, 1), got {frac}")
    if val_fraction + test_fraction >= 1.0:
        raise UserError("--val-fraction plus --test-fraction must leave some scenes for train")
    n_val = round(count * val_fraction)
    n_test = round(count * test_fraction)
    return {"train": count - n_val - n_test, "val": n_val, "test": n_test}


@dataclass(frozen=True)
class _Job:
    split: str
    index: int


class _Worker(TypedDict, total=False):
    """What each worker process holds, set by ``_init_worker``."""

    deck: PreparedDeck
    config: SceneConfig
    seed: int
    out: Path
    marks: bool


_WORKER: _Worker = {}


def _init_worker(deck_dir: str, config: SceneConfig, seed: int, out: str, marks: bool) -> None:
    cv2.setNumThreads(1)
    _WORKER.update(
        {
            "deck": prepare(load_deck(Path(deck_dir))),
            "config": config,
            "seed": seed,
            "out": Path(out),
            "marks": marks,
        }
    )


def _render_one(job: _Job) -> str:
    deck = _WORKER["deck"]
    config = _WORKER["config"]
    assert isinstance(deck, PreparedDeck) and isinstance(config, SceneConfig)
    out = _WORKER["out"]
    assert isinstance(out, Path)
    scene = render_scene(deck, scene_rng(int(_WORKER["seed"]), job.split, job.index), config)
    name = f"{job.split}_{job.index:06d}"
    cv2.imwrite(
        str(out / "images" / job.split / f"{name}.jpg"),
        scene.image,
        [cv2.IMWRITE_JPEG_QUALITY, int(scene.meta["jpeg_quality"])],  # type: ignore[call-overload]
    )
    lines = label_lines(
        scene.cards, config.width, config.height, config.min_visible, bool(_WORKER["marks"])
    )
    (out / "labels" / job.split / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
    record = {
        "file": f"images/{job.split}/{name}.jpg",
        "split": job.split,
        "index": job.index,
        "width": config.width,
        "height": config.height,
        "meta": scene.meta,
        "cards": [c.to_json() for c in scene.cards],
    }
    return json.dumps(record, separators=(",", ":"))


def _iterate(jobs: list[_Job], workers: int, initargs: tuple[object, ...]) -> Iterator[str]:
    if workers <= 1:
        _init_worker(*initargs)  # type: ignore[arg-type]
        for job in jobs:
            yield _render_one(job)
        return
    with worker_pool(workers, _init_worker, initargs) as pool:
        yield from pool.imap(_render_one, jobs, chunksize=8)


def write_scenes(
    deck_dir: Path,
    out: Path,
    counts: dict[str, int],
    seed: int = 0,
    config: SceneConfig | None = None,
    workers: int = 1,
    progress: bool = True,
    marks: bool = False,
) -> dict[str, int]:
    """Render ``counts[split]`` scenes per split into ``out``; returns the labelled-card count per
    split. With ``marks``, corner marks are labelled too (class 1). Re-running with the same
    arguments rewrites the same files. Each JPEG is written once,
    at the quality the scene drew (its compression artefacts are part of the augmentation)."""
    cfg = replace(config or SceneConfig(), jpeg_round_trip=False)
    load_deck(Path(deck_dir))  # fail early, in this process, on a bad deck
    out = Path(out).resolve()
    for split in counts:
        if split not in SPLITS:
            raise UserError(f"unknown split {split!r}: choose one of {', '.join(SPLITS)}")
    try:
        for split, n in counts.items():
            remove_stale_scenes(out, split, n)
            if n > 0:
                (out / "images" / split).mkdir(parents=True, exist_ok=True)
                (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(f"cannot write to {out}: {err.strerror}; pick a writable --out") from None
    jobs = [_Job(split, i) for split, n in counts.items() for i in range(n)]
    initargs = (str(deck_dir), cfg, int(seed), str(out), bool(marks))
    labelled = dict.fromkeys(counts, 0)
    files = {
        split: (out / "labels" / split / "scenes.jsonl").open("w")
        for split, n in counts.items()
        if n > 0
    }
    try:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(jobs), unit="scene", desc="scenes")
        for job, line in zip(jobs, _iterate(jobs, max(1, workers), initargs), strict=True):
            files[job.split].write(line + "\n")
            labelled[job.split] += line.count('"labelled":true')
            if bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
    finally:
        for fh in files.values():
            fh.close()
    write_data_yaml(out, marks=marks)
    return labelled


def remove_stale_scenes(out: Path, split: str, n: int) -> None:
    """Remove scenes of ``split`` an earlier, larger run left in ``out`` (index ``n`` on, the
    split's index when ``n`` is 0): the detector trains on every image in the folder while
    evaluation reads only ``scenes.jsonl``, so leftovers would mix two datasets unseen. Only
    files named as this module names them are touched; a split left empty is removed."""
    for folder, suffix in ((out / "images" / split, ".jpg"), (out / "labels" / split, ".txt")):
        if not folder.is_dir():
            continue
        for path in folder.glob(f"{split}_*{suffix}"):
            index = path.stem.removeprefix(f"{split}_")
            if index.isdigit() and int(index) >= n:
                path.unlink()
        if n == 0:
            (folder / "scenes.jsonl").unlink(missing_ok=True)
            if not any(folder.iterdir()):
                folder.rmdir()


WRITTEN_BY = "# written by 'skullcam synth scenes'"
"""The first line of a ``data.yaml`` that belongs to the folder it lies in."""


def write_data_yaml(out: Path, marks: bool = False) -> Path:
    """``data.yaml`` for ultralytics: absolute ``path``, the splits present, ``names: {0: card}``.

    ultralytics needs ``train`` and ``val``; a split that was not written falls back to the
    train images so a one-split folder still loads (the file says so in a comment).

    A comment names the OpenCV and numpy that drew the pixels (``rendered_with``): the same
    seed renders other pixels under another OpenCV (the held-out split, seed 9999, drawn
    under OpenCV 4.14 and 5.1 held 3,103 and 3,102 labelled cards, and the shipped model read
    97.1 and 97.0 % of its scenes), so a figure is tied to its dataset's render.
    """
    out = Path(out).resolve()
    present = [s for s in SPLITS if (out / "images" / s).is_dir()]
    lines = [WRITTEN_BY, f"# {rendered_with()}", f"path: {out}"]
    for split in SPLITS:
        if split in present:
            lines.append(f"{split}: images/{split}")
        elif split in ("train", "val") and present:
            lines.append(f"{split}: images/{present[0]}  # no {split} split written")
    lines += ["names:", "  0: card", *(["  1: mark"] if marks else []), ""]
    path = out / "data.yaml"
    path.write_text("\n".join(lines))
    return path


def data_yaml_for_here(data_yaml: Path, spare: Path) -> Path:
    """``data_yaml``, or a copy written to ``spare`` whose ``path:`` names the folder it lies in.

    ``write_data_yaml`` records the folder's absolute path, and ultralytics reads the images
    from there: a dataset copied or moved since it was written was read from its old place
    (silently, where that still existed) or failed with a traceback. Only a file
    ``write_data_yaml`` wrote is taken to belong to its folder: a hand-made one may name
    images kept elsewhere. The copy leaves the dataset's own file untouched (a committed
    sample's stays as committed)."""
    folder = Path(data_yaml).resolve().parent
    lines = Path(data_yaml).read_text().splitlines()
    if not lines or lines[0] != WRITTEN_BY:
        return Path(data_yaml)
    for i, line in enumerate(lines):
        if line.startswith("path:"):
            if Path(line.removeprefix("path:").strip()) == folder:
                return Path(data_yaml)
            lines[i] = f"path: {folder}"
            spare.parent.mkdir(parents=True, exist_ok=True)
            spare.write_text("\n".join(lines) + "\n")
            return spare
    return Path(data_yaml)


RENDERED_WITH = "rendered with"
"""How the line naming a dataset's rendering libraries begins, written and read back."""


def rendered_with() -> str:
    """The libraries whose versions decide a rendered scene's pixels, as one line."""
    return f"{RENDERED_WITH} opencv {cv2.__version__}, numpy {np.__version__}"


def read_rendered_with(dataset: Path) -> str | None:
    """The ``rendered_with`` line a dataset's ``data.yaml`` holds; None for a dataset written
    before ``data.yaml`` recorded it, or one without a ``data.yaml``."""
    path = Path(dataset) / "data.yaml"
    if not path.is_file():
        return None
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(f"# {RENDERED_WITH} "):
            return line.removeprefix("# ")
    return None


def read_scenes(out: Path, split: str) -> list[dict[str, object]]:
    """The scene records of one split, in index order."""
    path = Path(out) / "labels" / split / "scenes.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def relabel_scenes(out: Path, min_visible: float) -> dict[str, int]:
    """Redraw the card label files of a written dataset at another visibility threshold.

    Why: the detector learns "card" only from labelled cards, so the threshold for *training*
    labels need not be the must-find threshold of evaluation (0.5). Labelling cards down to a
    third visible stops the detector from learning a hard edge at exactly half hidden, where
    it cannot tell 45 % from 55 %. ``scenes.jsonl`` keeps every card's outline and visible
    fraction, so no scene is rendered again. Returns the labelled-card count per split.
    """
    out = Path(out)
    yaml_path = out / "data.yaml"
    if yaml_path.is_file() and "1: mark" in yaml_path.read_text():
        raise UserError(
            f"{out} has corner-mark labels, which scenes.jsonl cannot redraw; "
            "render it again with 'skullcam synth scenes --min-visible'"
        )
    labelled: dict[str, int] = {}
    for split in SPLITS:
        records = read_scenes(out, split)
        if not records:
            continue
        labelled[split] = 0
        for record in records:
            width, height = int(record["width"]), int(record["height"])  # type: ignore[call-overload]
            lines = []
            for card in record["cards"]:  # type: ignore[attr-defined]
                card["labelled"] = card["visible_fraction"] >= min_visible
                if card["labelled"]:
                    lines.append(obb_line(0, np.asarray(card["corners"]), width, height))
            labelled[split] += len(lines)
            name = Path(str(record["file"])).stem
            write_atomic(out / "labels" / split / f"{name}.txt", "".join(f"{x}\n" for x in lines))
        index = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        write_atomic(out / "labels" / split / "scenes.jsonl", index)
        # ultralytics' label cache would otherwise keep serving the old boxes.
        (out / "labels" / f"{split}.cache").unlink(missing_ok=True)
    if not labelled:
        raise UserError(
            f"no scenes.jsonl under {out}/labels: is it a 'skullcam synth scenes' folder?"
        )
    return labelled

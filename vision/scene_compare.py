"""Two models on the same scenes: which scenes one gets right that the other does not.

Scene accuracies a few scenes apart on 3,000 validation scenes are within a seed's noise, so
every model choice is made on the scenes that changed: how many a candidate
fixed, how many it broke, and whether that split could be a coin's (McNemar's exact test).
``skullcam eval`` writes each scene's verdict (``scenes.jsonl`` in its report folder) and, given
an earlier report with ``--against``, prints that comparison, so the choice needs no throw-away
script.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from skullcam.counts import counted
from skullcam.errors import UserError
from skullcam.files import write_atomic

SCENE_VERDICTS = "scenes.jsonl"


def write_scene_verdicts(scenes: Sequence[tuple[Path, Sequence[str]]], report: Path) -> Path:
    """One line per scene (its image and its errors, none when it was right), so a later
    evaluation of another model can be compared with this one scene by scene."""
    lines = [
        json.dumps({"image": str(image.resolve()), "correct": not errors, "errors": list(errors)})
        for image, errors in scenes
    ]
    path = report / SCENE_VERDICTS
    write_atomic(path, "".join(line + "\n" for line in lines))
    return path


def read_scene_verdicts(report: Path) -> dict[str, bool]:
    """Image -> scene right, from a report folder (or its ``scenes.jsonl``)."""
    path = report / SCENE_VERDICTS if report.is_dir() else report
    if not path.is_file():
        raise UserError(
            f"{report}: no {SCENE_VERDICTS} there; it is written by 'skullcam eval --out "
            f"{report}': evaluate that model again to compare against it"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read it ({err}); evaluate that model again") from None
    verdicts: dict[str, bool] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            row = json.loads(line)
            verdicts[str(row["image"])] = bool(row["correct"])
        except (ValueError, KeyError, TypeError):
            raise UserError(
                f"{path}, line {number}: not a scene verdict (image, correct); "
                "evaluate that model again to write it afresh"
            ) from None
    return verdicts


@dataclass(frozen=True)
class SceneComparison:
    """``after`` against ``before`` on the scenes both were judged on."""

    scenes: int
    right_before: int
    right_after: int
    fixed: int
    broken: int

    @property
    def p_value(self) -> float:
        """Two-sided exact McNemar: how likely so lopsided a split of the changed scenes is if
        either model were as likely to win each one."""
        changed = self.fixed + self.broken
        if changed == 0:
            return 1.0
        tail = sum(math.comb(changed, k) for k in range(min(self.fixed, self.broken) + 1))
        return min(1.0, 2 * tail / 2**changed)

    def describe(self) -> str:
        return (
            f"{self.right_after} of {counted(self.scenes, 'scene')} right against "
            f"{self.right_before}: "
            f"{self.fixed} fixed, {self.broken} broken (McNemar p = {self.p_value:.2g})"
        )


def check_same_scenes(before: Collection[str], after: Collection[str]) -> None:
    """Refuse to compare reports of different scenes (by image path): called before an
    evaluation as well as after, so a wrong --against costs no minutes of evaluating."""
    if set(before) != set(after):
        only_before = len(set(before) - set(after))
        only_after = len(set(after) - set(before))
        raise UserError(
            f"the two reports judged different scenes ({only_before} only in the earlier one, "
            f"{only_after} only in this one): evaluate both on the same --dataset, --split "
            "and --limit"
        )


def compare_scenes(before: dict[str, bool], after: dict[str, bool]) -> SceneComparison:
    """Compare two reports' verdicts; they must be of the same scenes, or the counts mislead."""
    check_same_scenes(before.keys(), after.keys())
    return SceneComparison(
        scenes=len(after),
        right_before=sum(before.values()),
        right_after=sum(after.values()),
        fixed=sum(1 for k, right in after.items() if right and not before[k]),
        broken=sum(1 for k, right in after.items() if not right and before[k]),
    )

"""Every name docs/rules-engine.md's Python API section lists is importable from
``skullcam.rules``, as the section's own example imports them: the page named
``SettingError``, which the package did not export."""

from __future__ import annotations

import builtins
import importlib
import re

from repo_paths import DOCS

import skullcam.rules


def documented_names() -> set[str]:
    """The leading name of each backticked entry in the API table's first column, and the
    error classes of the paragraph after it (``Settings.from_dict`` stays dotted)."""
    text = (DOCS / "rules-engine.md").read_text()
    api = text[text.index("## Python API") : text.index("## Settings")]
    names = set()
    for row in re.findall(r"^\| (`.*?) \|", api, re.M):
        names |= {m for m in re.findall(r"`([A-Za-z_][\w.]*)", row)}
    errors = api[api.index("Errors are") :]
    names |= set(re.findall(r"`([A-Z]\w+)`", errors))
    return {name for name in names if not hasattr(builtins, name)}


def resolve(name: str) -> object:
    """``skullcam.rules.X`` (or ``.X.attr``), or a fully named module's attribute."""
    if name.startswith("skullcam."):
        module, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module), attribute)
    found: object = skullcam.rules
    for part in name.split("."):
        found = getattr(found, part)
    return found


def test_every_documented_rules_name_is_importable() -> None:
    names = documented_names()
    assert {"resolve_trick", "SettingError", "Settings.from_dict"} <= names  # the scan reads
    missing = []
    for name in sorted(names):
        try:
            resolve(name)
        except AttributeError:
            missing.append(name)
    assert not missing, missing

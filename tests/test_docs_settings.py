"""docs/rules-engine.md's settings table says what the rules engine accepts."""

from __future__ import annotations

import re

from repo_paths import DOCS

from skullcam.rules import Settings
from skullcam.rules.settings import setting_fields
from skullcam.web.i18n import STRINGS

DOC = DOCS / "rules-engine.md"


def test_the_settings_table_matches_the_engine() -> None:
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", DOC.read_text(), re.M)
    documented = {key: (default.strip(" `"), allowed.strip()) for key, _, default, allowed in rows}
    labels = {key: label.strip() for key, label, _, _ in rows}
    defaults = Settings().to_dict()
    assert list(documented) == [key for key, _, _ in setting_fields()]
    for key, kind, spec in setting_fields():
        default, allowed = documented[key]
        assert default == str(defaults[key]).lower(), key
        if kind == "int":
            assert allowed == f"{spec[0]}..{spec[1]}", key
        elif kind == "choice":
            assert allowed == ", ".join(f"`{option}`" for option in spec), key
        else:
            assert allowed == "true, false", key
        # The "what" column is the settings page's English label, word for word.
        assert labels[key] == STRINGS[f"set_{key}"]["en"], key

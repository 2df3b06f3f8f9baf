"""Players' names as a table reads them: characters that draw nothing are no part of a name.

"Ana" with a variation selector, a zero-width space or a Hangul filler after it shows as "Ana"
on every page, so two such names were two players the TV showed as one. Unicode lists the
characters a renderer draws nothing for as *default ignorable*; Python's ``unicodedata`` does
not expose that property, so :data:`_IGNORABLE` copies its ranges (DerivedCoreProperties.txt).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

#: Default_Ignorable_Code_Point, Unicode 15.
_IGNORABLE = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; LRM, RLM
    (0x202A, 0x202E),  # bidirectional embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidirectional isolates
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # byte order mark (zero-width no-break space)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical beam and phrase controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement
)

#: Letters that draw nothing (Hangul fillers, the blank Braille pattern): the Braille blank is
#: a symbol to Unicode, not ignorable, yet shows as a space.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")

_ZWNJ, _ZWJ = "\u200c", "\u200d"
_EMOJI_STYLE = frozenset("\ufe0e\ufe0f")  # text and emoji presentation selectors


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return ch in BLANK_LETTERS or any(low <= code <= high for low, high in _IGNORABLE)


def _pictograph(ch: str) -> bool:
    """An emoji or other symbol, with its skin-tone modifier or presentation selector."""
    return unicodedata.category(ch) == "So" or ch in _EMOJI_STYLE or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _joining_letter(ch: str) -> bool:
    """A letter or mark of the scripts from Arabic to Sinhala (U+0600..U+0DFF), where a
    zero-width (non-)joiner picks the shape drawn: a joined or separate Persian letter,
    a conjunct or half form in Devanagari, the "Sri" of Sinhala names."""
    return 0x0600 <= ord(ch) <= 0x0DFF and unicodedata.category(ch)[0] in "LM"


def _keeps(kept: list[str], ch: str, after: str) -> bool:
    """Whether an ignorable ``ch`` shapes what its neighbours draw: a joiner between two
    emoji (the family 👨‍👩‍👧 is one picture, three without), an emoji presentation selector
    after a symbol (☠️), a (non-)joiner between letters of a script that joins them."""
    before = kept[-1] if kept else ""
    if not before:
        return False
    if ch in _EMOJI_STYLE:
        return unicodedata.category(before) == "So"
    if ch not in (_ZWJ, _ZWNJ) or not after:
        return False
    if ch == _ZWJ and _pictograph(before) and unicodedata.category(after) == "So":
        return True
    return _joining_letter(before) and _joining_letter(after)


def visible_name(name: str) -> str:
    """``name`` composed (NFC: "é" typed as e + accent is the "é" another phone sends), without
    the characters that draw nothing (but those that shape an emoji or a joining script, see
    :func:`_keeps`), and stripped: what a table sees on the TV, and what is stored."""
    composed = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for i, ch in enumerate(composed):
        after = composed[i + 1] if i + 1 < len(composed) else ""
        if not _ignorable(ch) or _keeps(kept, ch, after):
            kept.append(ch)
    return "".join(kept).strip()


def name_key(name: str) -> str:
    """What a reader sees of a name: compatibility-normalised ("Ｂｅｎ" is "Ben", an accent
    typed either way is one), every character that draws nothing left out (even a joiner in an
    emoji: a family and its three people side by side are too alike to tell apart across a
    table), and case folded."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf" and not _ignorable(c))
    return visible.strip().casefold()


def readable_names(names: Sequence[str]) -> list[str]:
    """A game's names stored by an older skullcam, as the table reads them today: each one's
    :func:`visible_name` (names stored before it existed keep their zero-width spaces and
    variation selectors), and a name the table would read as an earlier seat's numbered after
    it ("Ana" and "Ana" + U+FE0F were set up as two players the TV showed as two Anas: they
    read "Ana" and "Ana 2"), past any number another seat's name already has. Names are
    shown, scored and exported this way; the stored text is left as it was. A name with
    nothing visible in it stays as stored."""
    bases = [visible_name(stored) or stored for stored in names]
    firsts: dict[str, int] = {}
    for seat, base in enumerate(bases):
        firsts.setdefault(name_key(base), seat)
    taken = set(firsts)
    out = []
    for seat, base in enumerate(bases):
        name, number = base, 1
        if firsts[name_key(base)] != seat:  # read as an earlier seat's name
            while name_key(name) in taken:
                number += 1
                name = f"{base} {number}"
            taken.add(name_key(name))
        out.append(name)
    return out

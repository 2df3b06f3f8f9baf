"""What enrollment tells the user, kept as messages (a key and its arguments), worded in English.

The photo checks (``enroll_photo``, ``enroll.check_face``), the self-check sentence
(``enroll_check``) and the real-trick check (``enroll_tricks``) decide *what* to say; the
wording is a table of templates, so the enrollment page can say the same thing in Spanish,
Italian or Danish (``device/enroll_i18n.py``) while the command line and every English text
stay word for word what they were. It is ``rules.explain``'s phrases again, for enrollment.

A template is ``str.format`` text. An argument that is a :class:`CardName` is named by the
wording's card namer, a :class:`Message` is worded by the same wording, a tuple is its items
worded and joined with ", ", and a float written with a format spec (``{share:.0%}``) uses the
wording's decimal mark. A sentence of several pieces is a sequence of messages joined with
nothing between them: each piece carries its own "; ".

The adaptation's progress lines are messages too, handed to its ``say`` callback as
:class:`SaidText`: the English line for the terminal, its message for the page's log.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from skullcam.errors import UserError


def card_name(face: str) -> str:
    """A card as players say it: ``pirate-harry`` -> ``Pirate Harry``."""
    return " ".join(part.capitalize() for part in face.split("-"))


class CardName(NamedTuple):
    """A face named for the reader: "Green 7" in English, "Loro 7" on a Spanish page."""

    face: str


@dataclass(frozen=True)
class Message:
    """One thing to tell the user: its template's key and the values it names."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self)


def message(key: str, **args: Any) -> Message:
    return Message(key, args)


def counted(key: str, n: int, **args: Any) -> Message:
    """``key`` for a count ``n``; ``key_one`` when ``n`` is 1 (each language words its own
    singular: "1 card not found", "1 carta no encontrada")."""
    return Message(f"{key}_one" if n == 1 else key, {"n": n, **args})


def times(n: int) -> Message:
    """How often: "once", "twice", "3 times"."""
    return Message("times_1") if n == 1 else Message("times_2") if n == 2 else counted("times", n)


#: The English wording: the text the command line prints and the English page shows.
ENGLISH: dict[str, str] = {
    # A photo of one face (``enroll_photo.inspect_photo``).
    "photo_ok": "ok",
    "photo_edge_unclear": (
        "the card's edge does not stand out from the surface: put it on a plain surface of"
        " another colour and retake"
    ),
    "photo_washed_out": (
        "a reflection washes out the picture: tilt the card or move the light and retake"
    ),
    "photo_no_card": (
        "no card found: lay the card face up on a plain, contrasting surface, the whole card in"
        " the picture, hold still and retake"
    ),
    "photo_glare_cut": (
        "a reflection cuts the card's outline: tilt the card or move the light and retake"
    ),
    "photo_cards": "{n} cards in the picture: photograph one card at a time",
    "photo_picture_too_small": (
        "the picture is only {width} x {height} px, too small to hold a readable card: take"
        " the photo with the camera at full size"
    ),
    "photo_too_small": (
        "the card is only {width:.0f} px wide in the picture: move closer so it fills more of"
        " the frame"
    ),
    "photo_blurred": (
        "the card is blurred (sharpness {sharpness:.2f}, needs {needed:.2f}): hold still, focus"
        " on the card and retake"
    ),
    "photo_glare": (
        "a reflection washes out {share:.0%} of the card: tilt the card or move the light and"
        " retake"
    ),
    # The classifier reads the photo as another card (``enroll.check_face``).
    "photo_wrong_card": (
        "{label} looks like {best} ({best_name}), not {face} ({face_name}): check the card and"
        " retake, or accept it if it really is that card"
    ),
    "this_card": "this card",
    # How often a mistake happened.
    "times_1": "once",
    "times_2": "twice",
    "times": "{n} times",
    # The self-check on generated scenes (``enroll_check.CheckResult.sentence``).
    "check_right": "{recall:.1%} of cards right on {scenes} test scenes",
    "check_confused": "; {a} and {b} confused {times}",
    "check_not_found": "; {n} cards not found",
    "check_not_found_one": "; {n} card not found",
    "false_alarms": "; {n} false alarms",
    "false_alarms_one": "; {n} false alarm",
    # The check on photos of real tricks (``enroll_tricks.TrickComparison.sentence``).
    "tricks_none": "no photos of real tricks checked yet",
    "tricks_photos": "on {n} photos of real tricks: ",
    "tricks_photos_one": "on {n} photo of real tricks: ",
    "tricks_right": "{right} of {n} cards right",
    "tricks_right_one": "{right} of {n} card right",
    "tricks_misread": "; {true} read as {read} {times}",
    "tricks_other_misreads": "; {n} other misreads",
    "tricks_other_misreads_one": "; {n} other misread",
    "tricks_not_found": "; {n} cards not found ({names})",
    "tricks_not_found_one": "; {n} card not found ({names})",
    # A damaged or missing state.json, rebuilt from the face pictures
    # (``enroll.Enrollment.open``); ``why`` is ``state_damaged`` or ``state_missing``.
    "state_rebuilt": (
        "{why}: the enrollment goes on from the pictures of its accepted faces ({n} of {total})"
    ),
    "state_damaged": "{state} was damaged and is kept as {kept}",
    "state_missing": "{state} was missing",
    # An uploaded photo of a trick that cannot be read (``enroll_tricks.decode_photo``).
    "upload_empty": "the uploaded file is empty: choose a photo (JPEG or PNG)",
    "upload_unreadable": (
        "the uploaded file is not a readable image (not a JPEG or PNG, or cut short): choose a"
        " photo"
    ),
    "upload_too_small": "the photo is only {width} x {height} px: a trick needs at least {min} px",
    # The adaptation's progress lines (``adapt.adapt_recognizer``, ``enroll.adapt_and_install``,
    # the page's recheck of real tricks): said as :class:`SaidText`.
    "log_rendering": "rendering {n} scenes of the enrolled deck",
    "log_detector_kept": "keeping the detector as it is: {model} has no {file}",
    "log_detector": "fine-tuning the card detector on {scenes} scenes, {n} epochs",
    "log_detector_one": "fine-tuning the card detector on {scenes} scenes, {n} epoch",
    "log_detector_resuming": (
        "fine-tuning the card detector on {scenes} scenes, {n} epochs (resuming)"
    ),
    "log_detector_resuming_one": (
        "fine-tuning the card detector on {scenes} scenes, {n} epoch (resuming)"
    ),
    "log_crops": "cutting card crops from the scenes",
    "log_detector_crops": "cutting crops where the detector puts its boxes",
    "log_classifier": "fine-tuning the face classifier on {crops} crops, {n} epochs",
    "log_classifier_one": "fine-tuning the face classifier on {crops} crops, {n} epoch",
    "log_classifier_budget": (
        "fine-tuning the face classifier on {crops} crops, {n} epochs or {minutes:g} min,"
        " whichever ends first"
    ),
    "log_classifier_budget_one": (
        "fine-tuning the face classifier on {crops} crops, {n} epoch or {minutes:g} min,"
        " whichever ends first"
    ),
    "log_classifier_cut": (
        "the time budget ended the face classifier's fine-tune after {done:g} of its {n}"
        " epochs (--minutes 0 runs them all, when there is time)"
    ),
    "log_classifier_cut_one": (
        "the time budget ended the face classifier's fine-tune after {done:g} of its {n}"
        " epoch (--minutes 0 runs it whole, when there is time)"
    ),
    "log_corner_reader": "fine-tuning the corner reader on {patches} patches, {n} epochs",
    "log_corner_reader_one": "fine-tuning the corner reader on {patches} patches, {n} epoch",
    "log_corner_reader_budget": (
        "fine-tuning the corner reader on {patches} patches, {n} epochs or {minutes:g} min,"
        " whichever ends first"
    ),
    "log_corner_reader_budget_one": (
        "fine-tuning the corner reader on {patches} patches, {n} epoch or {minutes:g} min,"
        " whichever ends first"
    ),
    "log_self_check": "self-check: rendering {n} new test scenes of the deck",
    "log_choosing_weight": "choosing how much the corner reader counts, on the validation scenes",
    "log_corner_weight": (
        "corner reader's weight {weight:g}, chosen on {scenes} validation scenes (scenes read"
        " right by weight: {tried})"
    ),
    "log_weight_score": "{weight:g}: {right}",
    "log_tricks_recheck": "checking the saved photos of real tricks with the active model",
}


class _Formatter(string.Formatter):
    """``str.format`` with the wording's decimal mark in formatted floats."""

    def __init__(self, decimal: str) -> None:
        self.decimal = decimal

    def format_field(self, value: Any, format_spec: str) -> str:
        text = str(super().format_field(value, format_spec))
        if isinstance(value, float) and format_spec and self.decimal != ".":
            text = text.replace(".", self.decimal)
        return text


@dataclass(frozen=True)
class Wording:
    """How one language words the messages: its templates, card names and decimal mark."""

    templates: Mapping[str, str] = field(default_factory=lambda: ENGLISH)
    card: Callable[[str], str] = card_name
    decimal: str = "."


ENGLISH_WORDING = Wording()

Said = Message | Iterable[Message]


def render(said: Said, wording: Wording = ENGLISH_WORDING) -> str:
    """The message (or the pieces of one sentence) in ``wording``'s language; a key it lacks
    falls back to English."""
    formatter = _Formatter(wording.decimal)

    def named(value: Any) -> Any:
        if isinstance(value, CardName):
            return wording.card(value.face)
        if isinstance(value, Message):
            return render(value, wording)
        if isinstance(value, tuple):
            return ", ".join(str(named(v)) for v in value)
        return value

    pieces = [said] if isinstance(said, Message) else said
    out = []
    for piece in pieces:
        template = wording.templates.get(piece.key) or ENGLISH[piece.key]
        out.append(formatter.format(template, **{k: named(v) for k, v in piece.args.items()}))
    return "".join(out)


def placeholders(template: str) -> set[str]:
    """The argument names a template uses (the tests check translations use the same)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class SaidText(str):
    """A line the adaptation says: its English text, as the command line prints it, that also
    keeps what it says, so the enrollment page can word its log in the reader's language.

    A ``str`` (as :class:`MessageError` is a ``UserError``) because its sayers' callback takes
    text: ``print``, a list's ``append``, the command line's stderr writer all take it as the
    English line it always was."""

    said: Said

    def __new__(cls, said: Said) -> SaidText:
        text = super().__new__(cls, render(said))
        text.said = said if isinstance(said, Message) else tuple(said)
        return text


def spoken(key: str, **args: Any) -> SaidText:
    """The progress line ``key`` with its values, as :class:`SaidText`."""
    return SaidText(Message(key, args))


def spoken_count(key: str, n: int, **args: Any) -> SaidText:
    """The progress line ``key`` for a count ``n`` (:func:`counted`: "1 epoch", "3 epochs")."""
    return SaidText(counted(key, n, **args))


class MessageError(UserError):
    """A :class:`UserError` that also keeps what it says as a message, so a page can word it
    in its reader's language; ``str(err)`` is the English (``english``, else the message in
    this module's English)."""

    def __init__(self, said: Message, english: str | None = None) -> None:
        super().__init__(english if english is not None else render(said))
        self.said = said

"""One reading of a whole number a user sends, for the web API and the store alike."""

from __future__ import annotations

import pytest

from skullcam.errors import WHOLE_NUMBER_LIMIT, UserError, whole_number


@pytest.mark.parametrize(
    ("value", "number"),
    [
        (7, 7),
        (-1, -1),
        ("10", 10),
        (" -1 ", -1),
        ("+1", 1),
        ("-0", 0),
        ("0" * 50 + "12", 12),  # leading zeros do not count towards the limit
    ],
)
def test_ints_and_ascii_digits_read(value: object, number: int) -> None:
    assert whole_number(value, "Harry's bid change") == number


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "must be a whole number"),  # a bool is an int to Python, not to a player
        (1.0, "must be a whole number"),
        ("1.5", "must be a whole number"),
        ("²", "must be a whole number"),
        ("\u0661", "must be a whole number"),  # '١': int() would read it as 1
        ("", "must be a whole number"),
        (None, "must be a whole number"),
        ([1], "must be a whole number"),
        (WHOLE_NUMBER_LIMIT, "is far out of range"),
        (-(10**400), "is far out of range"),
        ("9" * 5000, "is far out of range"),  # refused before int() reads 5,000 digits
    ],
)
def test_anything_else_is_refused_naming_what_and_the_value(value: object, message: str) -> None:
    with pytest.raises(UserError, match=f"^bid {message}, got ") as err:
        whole_number(value, "bid")
    assert len(str(err.value)) < 100

"""Reading the table app's answers in Flask test-client tests."""

from __future__ import annotations

from typing import Any

from werkzeug.test import TestResponse


def json_of(res: TestResponse) -> Any:
    """The response's JSON body. ``TestResponse.json`` is ``Any | None`` (None when the answer is
    not JSON): this fails the test there, with what came back, instead of a ``None[...]``."""
    body = res.json
    assert body is not None, f"not a JSON answer ({res.status}): {res.data[:200]!r}"
    return body

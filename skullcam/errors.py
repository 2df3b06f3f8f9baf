"""The one error type the command line turns into a one-line message instead of a traceback.

Packages other than ``rules`` raise :class:`UserError` for anything a user can fix (a bad file,
a missing model, an unplugged camera). ``rules`` stays dependency-free and raises its own
``skullcam.rules.RulesError``; the CLI treats both the same way.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix; ``str(err)`` names what was wrong and what to do."""

"""A count and its noun, in English, for the command line's lines: "1 trick", "2 tricks".

Lines built as f"{n} tricks" said "1 tricks" whenever the count was one: a one-round game, a
benchmark of one game, one scene evaluated. The pages' words are counted per language by their
own catalogs (``_one`` keys), the rules engine's phrases by their templates' counted words
(``{dealt:card|cards}``, ``rules.explain``: rules/ imports nothing of ours); this is for the
English the command line prints and the camera writes in a trick's flags.
"""

from __future__ import annotations


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in the number it takes: "1 trick", "0 tricks", "3 tricks". A share
    ("1/1 trick exact") counts in the number of its whole, as "one out of one trick" does."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def agreeing(n: int, one: str, other: str) -> str:
    """Of a word's two forms, the one a count of ``n`` takes ("was" or "were", "waits" or
    "wait"): a counted noun the sentence goes on about needs its verb to agree with it."""
    return one if n == 1 else other

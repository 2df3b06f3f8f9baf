"""Files in and out: one place for how skullcam reads, writes and creates them.

Writing goes through :func:`write_atomic`, so a crash leaves either the old contents or the
new, never half of both (labels, enrollment state, calibrations, labelled trick photos: the
recorded game and a user's enrollment must survive a power cut). Reading a file a user names
and creating a folder go through :func:`read_text`, :func:`read_json` and :func:`make_folder`,
which turn every way that can fail into one line naming the file and what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any, BinaryIO

from skullcam.errors import UserError


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to a hidden temp file beside ``path``, flush it to disk, rename it over.

    The temp name starts with a dot so folder listings (``*.json``, ``*.txt``) never see it.
    A write that fails is a ``UserError`` naming the file; the file keeps its old contents.
    """
    path = Path(path)
    try:
        replace_atomically(path, data.encode() if isinstance(data, str) else data)
    except OSError as err:
        raise _cannot_write(path, temp_beside(path), err) from err


def replace_atomically(path: Path, data: bytes) -> None:
    """:func:`write_atomic` for a caller that words a failure itself (a trick's picture: the
    recorder names the trick): the ``OSError`` is raised, the temp file removed."""
    tmp = temp_beside(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            _flush_to_disk(fh)
        os.replace(tmp, path)
    except OSError:
        discard(tmp)  # a full disk should not also keep half a file
        raise


def copy_atomic(source: Path, path: Path) -> None:
    """Copy ``source`` to ``path`` as :func:`write_atomic` writes, streamed (model weights and
    checkpoints run to tens of MB): a plain copy sits in the page cache, and a power cut after
    a pointer names its folder can leave a model of empty files behind."""
    path = Path(path)
    tmp = temp_beside(path)
    with open(source, "rb") as src:  # a missing source is its own error, not a write's
        try:
            with open(tmp, "wb") as fh:
                shutil.copyfileobj(src, fh, 1 << 20)
                _flush_to_disk(fh)
            os.replace(tmp, path)
        except OSError as err:
            raise _cannot_write(path, tmp, err) from err


def sync_folder(path: Path) -> None:
    """Flush a folder's entries to disk: files written and renamed into it are then there after
    a power cut, not only their contents. Needed before anything durable names the folder."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class CannotWrite(UserError):
    """A file that could not be written (a read-only card, a full disk), raised from the
    system's ``OSError``: a web page words that error in its reader's language, where the
    message's advice (another --data folder) is for the command line."""


def _cannot_write(path: Path, tmp: Path, err: OSError) -> CannotWrite:
    """A read-only card or a full disk: say which file, and keep its old contents."""
    discard(tmp)
    return CannotWrite(
        f"cannot write {path} ({err.strerror or err}): make {path.parent} writable or free "
        "some disk space, or pass another --data / --out folder"
    )


def discard(path: Path) -> None:
    """Remove a failed write's temp file where it is there. A read-only file system refuses
    even the removal of a file that is not there (EROFS, not ENOENT): nothing is left to do
    then, and the write's own error, not this one, is the one to say."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def temp_beside(path: Path) -> Path:
    """The name ``path``'s new contents are written under before the rename: hidden, so
    folder listings (``*.json``, ``*.jpg``, ``frame_*``) never see it, and told apart from a
    user's file by :func:`remove_leftover_temps` after a kill mid-write."""
    return path.with_name(f".{path.name}.tmp")


def remove_leftover_temps(folder: Path, written: re.Pattern[str]) -> list[Path]:
    """Remove the temp files a kill mid-write left in ``folder``: :func:`temp_beside`'s of a
    name ``written`` matches in full, and ``<name>.tmp`` (how trick pictures and saved frames
    were named before). Nothing else: a user's ``.tmp`` file, or one beside a name we never
    write there, is kept. Returns what was removed.

    Only for a folder no other process writes into meanwhile (``skullcam run`` under its
    lock): another's temp file, removed in the middle of its write, would lose that file."""
    try:
        entries = list(folder.iterdir())
    except OSError:  # no such folder (or not readable): nothing of ours to remove
        return []
    removed = []
    for entry in entries:
        name = entry.name.removesuffix(".tmp")
        if name == entry.name or not entry.is_file():
            continue
        if written.fullmatch(name.removeprefix(".")) is None:
            continue
        try:
            entry.unlink()
        except OSError:  # gone meanwhile, or a folder that cannot be written: left as it is
            continue
        removed.append(entry)
    return removed


def _flush_to_disk(fh: BinaryIO) -> None:
    fh.flush()
    os.fsync(fh.fileno())


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path`` (``-`` reads stdin), or a one-line UserError saying why not.

    Every file a user hands skullcam goes through here, so a missing file, a folder, a
    permission problem or a binary file reads the same way wherever it is given.
    """
    try:
        if str(path) == "-":
            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise UserError(f"{what} {path} is a folder; give the file") from None
    except OSError as err:
        raise UserError(f"cannot read {what} {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: {what} is not UTF-8 text") from None


def read_json(path: Path, what: str) -> Any:
    """Parsed JSON from ``path`` (``-`` reads stdin), or a one-line UserError saying why not."""
    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError(
            f"{path}: {what} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
            "fix it there"
        ) from None
    except RecursionError:
        raise UserError(f"{path}: {what} is nested too deeply to be a skullcam file") from None
    except ValueError:
        # json.loads refuses a number of over 4,300 digits with a plain ValueError (Python's
        # guard against quadratic int parsing): no skullcam field is anywhere near that.
        raise UserError(
            f"{path}: {what} has a number with too many digits; fix that number"
        ) from None


def make_folder(path: Path, what: str) -> Path:
    """Create ``path`` (and its parents) if missing, or a one-line UserError saying why not:
    a file in the way, no permission, a read-only or virtual file system."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UserError(f"{what} {path} is a file, not a folder; give a folder path")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(
            f"cannot create {what} {path}: {err.strerror or err}; give a folder you can write"
        ) from None
    return path


def hold_lock(path: Path, holder: str) -> BinaryIO | None:
    """An exclusive lock on ``path`` for as long as the returned file stays open (the process
    lives); UserError naming ``holder`` when another process holds it, and saying what failed
    when the lock cannot be taken at all (a file system without locks, some network shares:
    blaming another program there sent the user looking for one that is not running). None
    where the system has no such locks (not Linux or macOS): there nothing is checked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return None
    try:
        fh = open(path, "a+b")  # noqa: SIM115 - held open on purpose: the lock lives with it
    except OSError as err:
        fix = "move that folder aside" if path.is_dir() else f"make {path.parent} writable"
        raise UserError(
            f"cannot open the lock file {path} ({err.strerror or err}): {fix}, or pass another"
            " --data"
        ) from err
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as err:  # EWOULDBLOCK: held by another process
        fh.close()
        raise UserError(holder) from err
    except OSError as err:
        fh.close()
        raise UserError(
            f"cannot lock {path} ({err.strerror or err}): its file system takes no file locks;"
            " give a --data folder on a local disk"
        ) from err
    return fh

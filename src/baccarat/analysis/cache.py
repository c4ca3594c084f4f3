"""A small on-disk cache for what the analysis computes once per rule set or per build.

Start-up is what ``baccarat odds`` and ``baccarat simulate`` spend most of their time on
when asked a small question, and most of it is the same every time: a rule set's tables,
its exact full-shoe EVs, the compiled kernels. They are kept in a directory of their own,
``$BACCARAT_CACHE_DIR`` or else ``$XDG_CACHE_HOME/baccarat`` (``~/.cache/baccarat``), under
a name made of the hash of what they were computed from, so a changed rule set or a changed
engine never reads a stale entry.

The cache is only ever a shortcut. An entry is written to a temporary file and renamed into
place (readers never see half a file), carries the hash of its own content (a damaged file
is noticed), and anything wrong on reading (missing, truncated, corrupt, unreadable, a
directory that cannot be written) means the value is computed again, never an error. This
is the analysis package's one piece of I/O, of the same kind as numba's own cache.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as where:
...     first = cached_json("demo", {"n": 3}, lambda: {"square": 9}, directory=where)
...     again = cached_json("demo", {"n": 3}, lambda: {"square": -1}, directory=where)
>>> first, again
({'square': 9}, {'square': 9})
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "cache_dir",
    "cached_json",
    "content_hash",
    "function_key",
    "package_stamp",
    "read_entry",
    "source_stamp",
    "write_entry",
]

#: Bump to drop every entry written by an older layout of the cache.
FORMAT = 1
_MAGIC = b"baccarat-cache-1\n"


def cache_dir() -> Path:
    """Where entries live (not created here)."""
    chosen = os.environ.get("BACCARAT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "baccarat"


def content_hash(*parts: object) -> str:
    """A stable hash of JSON-able parts (a rule set's content, a source file's text...).

    >>> content_hash({"a": 1}, "x") == content_hash({"a": 1}, "x") != content_hash("x")
    True
    """
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def read_entry(path: Path) -> bytes | None:
    """The payload of an entry written by :func:`write_entry`, or None if it is not sound."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 65  # the magic line, then the hex digest and its newline
    if len(data) < head + 1 or not data.startswith(_MAGIC) or data[head - 1 : head] != b"\n":
        return None
    digest, payload = data[len(_MAGIC) : head - 1], data[head:]
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    return payload


def write_entry(path: Path, payload: bytes) -> bool:
    """Write an entry atomically (temporary file, then rename); False if it could not be."""
    data = _MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


def cached_json(
    kind: str,
    key: object,
    compute: Callable[[], Any],
    *,
    directory: str | Path | None = None,
    valid: Callable[[Any], bool] = lambda value: True,
) -> Any:
    """``compute()``, or what it gave before for the same ``kind`` and ``key`` (JSON values);
    an entry that ``valid`` turns down is computed again."""
    path = Path(directory or cache_dir()) / f"{kind}-{content_hash(FORMAT, kind, key)}.json"
    payload = read_entry(path)
    if payload is not None:
        try:
            value = json.loads(payload)
        except ValueError:
            pass
        else:
            if valid(value):
                return value
    value = compute()
    write_entry(path, json.dumps(value, separators=(",", ":")).encode())
    return value


def source_stamp(*modules: str) -> list[object]:
    """What the source of some modules is: each one's file, size and modification time, as
    first seen by this process (a file edited later does not pass for the code running).

    Part of a cache key, so that an entry computed by other code is never read.
    A module without a file (or not imported) stamps as its name alone.
    """
    return list(_stamps(modules))


@cache
def _stamps(modules: tuple[str, ...]) -> tuple[object, ...]:
    stamp: list[object] = []
    for name in modules:
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        try:
            info = os.stat(file) if file else None
        except OSError:
            info = None
        stamp.append([name, file, info.st_size, info.st_mtime_ns] if info else [name])
    return tuple(stamp)


def function_key(function: object, depth: int = 0) -> object:
    """A stable description of a function: its code and what its closure holds (not ids).

    >>> def outer(n):
    ...     return lambda: n
    >>> function_key(outer(1)) == function_key(outer(1)) != function_key(outer(2))
    True
    """
    code = getattr(function, "__code__", None)
    if code is None or depth > 4:
        text = repr(function)
        return None if " at 0x" in text else text
    cells = getattr(function, "__closure__", None) or ()
    return [
        getattr(function, "__module__", None),
        getattr(function, "__qualname__", None),
        hashlib.sha256(code.co_code).hexdigest()[:16],
        [
            c if isinstance(c, str | int | float | bool | None) else type(c).__name__
            for c in code.co_consts
        ],
        [function_key(cell.cell_contents, depth + 1) for cell in cells],
    ]


def package_stamp() -> list[object]:
    """What the analysis code is now, without importing it: the size and modification time
    of every source file of ``baccarat.analysis`` and of the rules it reads.

    For a cache consulted before the engine is imported (importing it is what a hit saves).
    """
    root = Path(__file__).resolve().parents[1]
    files = sorted(
        path
        for path in (*root.joinpath("analysis").rglob("*"), *root.glob("*.py"))
        if path.suffix in {".py", ".c", ".h"}
    )
    stamp: list[object] = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        stamp.append([str(path.relative_to(root)), info.st_size, info.st_mtime_ns])
    return stamp

"""The analysis kernels in C (``kernels.c``), built with the system compiler on first use.

:func:`library` compiles ``kernels.c`` with ``cc -O2`` (``$CC`` if set) into the analysis
cache (``baccarat.analysis.cache``), under the hash of the source, the compiler and the
machine, and loads it with ctypes; later processes only load it (about a millisecond). Its
functions release the GIL while they run. Without a C compiler, or with
``BACCARAT_NATIVE=0``, :func:`library` is None and the callers use the numba kernels,
which compute the same numbers (the tests hold the two together).

>>> lib = library()
>>> lib is None or lib.bk_max_basis() == 64
True
"""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

from baccarat.analysis.cache import cache_dir, content_hash

__all__ = ["SOURCE", "build", "library"]

SOURCE = Path(__file__).with_name("kernels.c")
_FLAGS = ("-O2", "-shared", "-fPIC", "-fno-math-errno", "-std=c99")


def _compiler() -> str | None:
    chosen = os.environ.get("CC") or "cc"
    return shutil.which(chosen)


def build(directory: Path | None = None) -> Path | None:
    """The compiled library, built if the cache has none for this source; None if it cannot be."""
    compiler = _compiler()
    if compiler is None:
        return None
    source = SOURCE.read_text()
    tag = content_hash(source, compiler, _FLAGS, platform.machine(), sys.platform)
    where = directory or cache_dir()
    target = where / f"kernels-{tag}.so"
    if target.exists():
        return target
    try:
        where.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=where, prefix=target.name, suffix=".tmp")
        os.close(handle)
        done = subprocess.run(
            [compiler, *_FLAGS, "-o", temporary, str(SOURCE), "-lm"],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            Path(temporary).unlink(missing_ok=True)
            return None
        os.replace(temporary, target)  # atomic: a process racing us loads one whole file
    except OSError:
        return None
    return target


@cache
def library() -> ctypes.CDLL | None:
    """The loaded kernels, or None (no compiler, ``BACCARAT_NATIVE=0``, or a failed build)."""
    if os.environ.get("BACCARAT_NATIVE", "1") == "0":
        return None
    path = build()
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(str(path))
    except OSError:
        path.unlink(missing_ok=True)  # a damaged file: the next process builds it again
        return None
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    lib.bk_run_batch.restype = i64
    lib.bk_run_batch.argtypes = [ptr, i64, i64, i64, i64, i64, ptr, ptr, i64, i64, *[ptr] * 10]
    lib.bk_shuffled_orders.restype = None
    lib.bk_shuffled_orders.argtypes = [ptr, i64, i64, ptr, ptr]
    lib.bk_odds.restype = i64
    lib.bk_odds.argtypes = [ptr, i64, ptr, ptr]
    lib.bk_odds_many.restype = i64
    lib.bk_odds_many.argtypes = [ptr, i64, i64, i64, ptr, ptr]
    lib.bk_max_basis.restype = i64
    lib.bk_max_basis.argtypes = []
    return lib

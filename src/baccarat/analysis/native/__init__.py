"""The analysis kernels in C, built with the system compiler on first use.

:func:`library` compiles ``simulate.c`` (the simulator's shoe loop) and ``odds.c`` (the
float path) with ``cc`` (``$CC`` if set) into one library in the analysis cache
(``baccarat.analysis.cache``), under the hash of the sources, the flags, the compiler and
the processor, and loads it with ctypes; later processes only load it (about a millisecond). Its
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

__all__ = ["SOURCES", "build", "library"]

HERE = Path(__file__).parent
#: The C sources, and the flags each is compiled with: the simulator in strict IEEE
#: arithmetic (its true-count bins must be the numba kernel's, bit for bit), the float path
#: for this processor with sums reassociated (it is held to the exact path within 1e-12).
SOURCES = {
    "simulate.c": ("-O2", "-std=gnu99", "-fPIC", "-fno-math-errno"),
    "odds.c": ("-O3", "-std=gnu99", "-fPIC", "-march=native", "-ffast-math"),
}
SOURCE = HERE / "simulate.c"


def _compiler() -> str | None:
    chosen = os.environ.get("CC") or "cc"
    return shutil.which(chosen)


def _processor() -> str:
    # -march=native: a library built for one processor must not load on another one that
    # shares the cache directory, so the processor's features are part of its name.
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith(("flags", "Features")):
                    return line
    except OSError:
        pass
    return platform.processor()


def build(directory: Path | None = None) -> Path | None:
    """The compiled library, built if the cache has none for these sources; None if it
    cannot be built."""
    compiler = _compiler()
    if compiler is None:
        return None
    texts = {name: (HERE / name).read_text() for name in (*SOURCES, "deal.h")}
    tag = content_hash(texts, compiler, SOURCES, platform.machine(), sys.platform, _processor())
    where = directory or cache_dir()
    target = where / f"kernels-{tag}.so"
    if target.exists():
        return target
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=where) as work:
            objects = []
            for name, flags in SOURCES.items():
                objects.append(str(Path(work) / f"{name}.o"))
                _run([compiler, *flags, "-c", str(HERE / name), "-o", objects[-1]])
            linked = str(Path(work) / target.name)
            _run([compiler, "-shared", "-o", linked, *objects, "-lm"])
            os.replace(linked, target)  # atomic: a process racing us loads one whole file
    except (OSError, subprocess.CalledProcessError):
        return None
    return target


def _ours(path: Path) -> bool:
    """Whether a library is safe to load: the user's own, writable by no one else (code that
    another user could have put in a shared cache directory is not run)."""
    try:
        info = path.stat()
    except OSError:
        return False
    owner = getattr(os, "getuid", lambda: info.st_uid)()  # no owners to compare on Windows
    return bool(info.st_uid == owner and not info.st_mode & 0o022)


def _run(command: list[str]) -> None:
    subprocess.run(command, capture_output=True, check=True)


@cache
def library() -> ctypes.CDLL | None:
    """The loaded kernels, or None (no compiler, ``BACCARAT_NATIVE=0``, or a failed build)."""
    if os.environ.get("BACCARAT_NATIVE", "1") == "0":
        return None
    path = build()
    if path is None or not _ours(path):
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
    lib.bk_ev_traces.restype = i64
    lib.bk_ev_traces.argtypes = [ptr, ptr, i64, i64, ptr, ptr, i64, i64, ptr, ptr, i64, *[ptr] * 4]
    lib.bk_max_basis.restype = i64
    lib.bk_max_basis.argtypes = []
    return lib

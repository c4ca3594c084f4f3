"""numba, imported without scipy: the fallback kernels' one way in.

Importing numba runs a BLAS check (``numba.np.arraymath``) that imports
``scipy.linalg.cython_blas`` when scipy is installed: a third to half a second, for linear
algebra no kernel here uses. While numba loads, that one module is made unimportable (only
if scipy is not loaded already), so the check finds no BLAS; afterwards scipy imports as
usual for whoever needs it.

>>> numba = load_numba()
>>> callable(numba.njit)
True
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["load_numba"]

_BLAS = "scipy.linalg.cython_blas"


def load_numba() -> ModuleType:
    """The numba module, imported (the first time) without its scipy BLAS check."""
    if "numba" in sys.modules:
        return sys.modules["numba"]
    blocked = _BLAS not in sys.modules
    if blocked:
        sys.modules[_BLAS] = None  # type: ignore[assignment]  # an import of it now fails
    try:
        import numba
    finally:
        if blocked and sys.modules.get(_BLAS) is None:
            del sys.modules[_BLAS]
    return numba

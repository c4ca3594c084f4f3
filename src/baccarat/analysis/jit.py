"""numba, imported without scipy: the fallback kernels' one way in.

numba's CPU target runs a BLAS check (``numba.np.arraymath``, loaded with the target on the
first call of a kernel) that imports ``scipy.linalg.cython_blas`` when scipy is installed: a
third to half a second, for linear algebra no kernel here uses. :func:`load_numba` imports
numba and that module at once while ``scipy.linalg.cython_blas`` is made unimportable (only
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
        import numba.np.arraymath  # the check runs here (else when the CPU target loads)
    finally:
        if blocked and sys.modules.get(_BLAS) is None:
            del sys.modules[_BLAS]
    return numba

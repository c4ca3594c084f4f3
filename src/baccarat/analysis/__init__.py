"""Analysis of the game: exact odds (``baccarat.analysis.exact``), effects of removal
(``eor``), the EV trace of a dealt shoe (``trace``) and simulation (``baccarat.analysis.simulate``).

This package imports nothing heavy on its own: import the module you need. The exact odds
engine reads numpy; only its compiled parts (``baccarat.analysis.exact.kernels``, the
simulator's kernel) load numba.
"""

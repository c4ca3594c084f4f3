"""Analysis of the game: exact odds (``baccarat.analysis.exact``) and simulation.

This package imports nothing heavy on its own: import the module you need. The exact odds
engine reads numpy; only its compiled float path (``baccarat.analysis.kernels``) loads numba.
"""

"""The exact odds engine: every bet's odds for any shoe, in fractions or compiled floats.

The public entry points live here; the modules hold the parts:

* ``counts``: what the engine is told about a shoe (by card, by rank, by value);
* ``coup_table``: every coup by card values, counted once (multiset, signature, pair key);
* ``signature``: which event each bet of the catalogue falls on, for every kind of coup;
* ``pricing``: a rule set made ready to price (each bet's events and what they pay);
* ``ways`` and ``odds``: the exact path, in integers and fractions;
* ``float_path``, ``multiset_sums``, ``pair_levels``, ``prepared`` and the C kernels
  (``baccarat.analysis.native``; numba's ``kernels`` where no C compiler is at hand): the
  float path, for one shoe per call or many at once.

The names below are imported on first use (``ways`` at once: it is also a module's name).

>>> from baccarat.analysis.exact import bet_evs
>>> from baccarat.rulesets import load_ruleset
>>> f"{float(bet_evs(load_ruleset('standard'))['banker']):.6f}"
'-0.010579'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

# ``ways`` is imported now: it is also the name of its module, and a module imported
# later would otherwise shadow the function on the package.
from baccarat.analysis.exact.ways import Ways, ways
from baccarat.shoe import Composition

if TYPE_CHECKING:
    from baccarat.analysis.exact.counts import CardCounts, ValueCounts
    from baccarat.analysis.exact.float_path import FastOdds, composition_evs, fast_odds
    from baccarat.analysis.exact.odds import BetOdds, Odds, bet_evs, exact_odds, full_shoe

__all__ = [
    "BetOdds",
    "CardCounts",
    "Composition",
    "FastOdds",
    "Odds",
    "ValueCounts",
    "Ways",
    "bet_evs",
    "composition_evs",
    "exact_odds",
    "fast_odds",
    "full_shoe",
    "ways",
]

# Where each public name lives: imported on first use, so that reading one part (the
# simulator reads the signature tables) does not load the others.
_MODULES = {
    "CardCounts": "counts",
    "ValueCounts": "counts",
    "FastOdds": "float_path",
    "composition_evs": "float_path",
    "fast_odds": "float_path",
    "BetOdds": "odds",
    "Odds": "odds",
    "bet_evs": "odds",
    "exact_odds": "odds",
    "full_shoe": "odds",
}


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

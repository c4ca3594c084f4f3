"""The exact odds engine: every bet's odds for any shoe, in fractions or compiled floats.

The public entry points live here; the modules hold the parts:

* ``counts``: what the engine is told about a shoe (by card, by rank, by value);
* ``coup_table``: every coup by card values, counted once (multiset, signature, pair key);
* ``signature``: which event each bet of the catalogue falls on, for every kind of coup;
* ``pricing``: a rule set made ready to price (each bet's events and what they pay);
* ``ways`` and ``odds``: the exact path, in integers and fractions;
* ``float_path``, ``multiset_sums``, ``pair_levels`` and ``kernels`` (numba): the float
  path, for many shoes at once.

Importing this package reads numpy but never starts numba: only ``kernels`` does, when a
batch of shoes is priced.

>>> from baccarat.rulesets import load_ruleset
>>> f"{float(bet_evs(load_ruleset('standard'))['banker']):.6f}"
'-0.010579'
"""

from __future__ import annotations

from baccarat.analysis.exact.counts import CardCounts, ValueCounts
from baccarat.analysis.exact.float_path import FastOdds, composition_evs, fast_odds
from baccarat.analysis.exact.odds import BetOdds, Odds, bet_evs, exact_odds, full_shoe
from baccarat.analysis.exact.ways import Ways, ways
from baccarat.shoe import Composition

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

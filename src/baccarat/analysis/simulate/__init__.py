"""The Monte Carlo simulator: real shoes dealt at random in a compiled kernel, every bet settled.

The public entry points live here; the modules hold the parts:

* ``keys``: a coup as one integer (its kind), a card as one byte, each bet's event by key;
* ``kernel`` (numba): shuffle, burn, deal and tally whole shoes;
* ``strategy``: flat bets and card counts, as written on the command line;
* ``batches``: the unit of work (seeded batches, integer tallies) and threads to run it;
* ``run``: ``simulate`` and the job it compiles from a rule set;
* ``results``: each bet's observed EV beside the exact one, each strategy's play;
* ``cluster`` (Dask) and ``plot`` (matplotlib), for the extras of the same names.

The names below are imported on first use, so that reading a strategy
(``baccarat.analysis.simulate.strategy``) never loads numba.

>>> from baccarat.rulesets import load_ruleset
>>> simulate(load_ruleset("standard"), 10, seed=1).shoes
10
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from baccarat.analysis.simulate.batches import (
        BATCH_SHOES,
        PATH_SHOES,
        Job,
        Progress,
        SimulationError,
        Tally,
        Totals,
        batch_state,
        run_chunk,
    )
    from baccarat.analysis.simulate.results import Simulation
    from baccarat.analysis.simulate.run import compile_job, simulate
    from baccarat.analysis.simulate.strategy import Strategy, StrategyError

__all__ = [
    "BATCH_SHOES",
    "PATH_SHOES",
    "Job",
    "Progress",
    "Simulation",
    "SimulationError",
    "Strategy",
    "StrategyError",
    "Tally",
    "Totals",
    "batch_state",
    "compile_job",
    "run_chunk",
    "simulate",
]

# Where each public name lives.
_MODULES = {
    **dict.fromkeys(
        (
            "BATCH_SHOES",
            "PATH_SHOES",
            "Job",
            "Progress",
            "SimulationError",
            "Tally",
            "Totals",
            "batch_state",
            "run_chunk",
        ),
        "batches",
    ),
    "Simulation": "results",
    "compile_job": "run",
    "simulate": "run",
    "Strategy": "strategy",
    "StrategyError": "strategy",
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

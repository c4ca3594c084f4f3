"""Monte Carlo simulation of whole shoes: every bet of a rule set settled, strategies played.

``simulate`` compiles a rule set and its strategies into a job (``compile_job``: plain
numbers and arrays), runs its batches (``baccarat.analysis.simulate.batches``) on threads
or on a Dask cluster, and reports what they found (``baccarat.analysis.simulate.results``).

>>> from baccarat.rulesets import load_ruleset
>>> from baccarat.analysis.simulate.strategy import Strategy
>>> run = simulate(load_ruleset("ez"), 2000, seed=7, strategies=[Strategy.parse("count:dragon_7")])
>>> run.shoes, run.coups > 150_000, run.interrupted
(2000, True, False)
>>> banker = run.bet("banker")
>>> abs(banker.z) < 4
True
>>> run.coups == simulate(load_ruleset("ez"), 2000, seed=7, workers=2).coups
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from threading import Event

import numpy as np

from baccarat.analysis.simulate import keys
from baccarat.analysis.simulate.batches import (
    BATCH_SHOES,
    Job,
    Progress,
    SimulationError,
    Totals,
    run_on_threads,
)
from baccarat.analysis.simulate.results import Simulation, bet_nets
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import RuleSet
from baccarat.shoe import LastCoupRule

__all__ = ["compile_job", "simulate"]


def compile_job(
    ruleset: RuleSet,
    shoes: int,
    seed: int,
    strategies: Sequence[Strategy] = (),
    batch_shoes: int = BATCH_SHOES,
) -> tuple[Job, tuple[int, ...]]:
    """The job for a run, and each strategy's scale (its nets are whole multiples of 1/scale)."""
    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:
        raise SimulationError(f"the number of shoes must be a positive integer, not {shoes!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationError(f"the seed must be a non-negative integer, not {seed!r}")
    try:
        # Every offered bet's events by key, from its classify (once per bet type per process).
        by_key = {name: keys.key_events(rule.type) for name, rule in ruleset.bets.items()}
    except ValueError as error:
        raise SimulationError(str(error)) from None
    count = len(strategies)
    net = np.zeros((count, keys.N_KEYS), dtype=np.int64)
    event = np.zeros((count, keys.N_KEYS), dtype=np.int64)
    tags = np.zeros((count, 256), dtype=np.int64)
    counting = np.zeros(count, dtype=np.int64)
    numerator = np.zeros(count, dtype=np.int64)
    denominator = np.ones(count, dtype=np.int64)
    scales = []
    for s, strategy in enumerate(strategies):
        if not ruleset.offers(strategy.bet):
            raise SimulationError(f"rule set {ruleset.name!r} does not offer {strategy.bet!r}")
        nets = bet_nets(ruleset, strategy.bet)
        if len(nets) > keys.MAX_EVENTS:
            raise SimulationError(
                f"a strategy can play a bet of at most {keys.MAX_EVENTS} events, "
                f"not {strategy.bet!r} ({len(nets)})"
            )
        scale = math.lcm(*(n.denominator for n in nets))
        scales.append(scale)
        # Keys no coup has (event -1) are never dealt: any event will do for them.
        events = np.maximum(by_key[strategy.bet], 0)
        event[s] = events
        net[s] = np.array([int(n * scale) for n in nets], dtype=np.int64)[events]
        if strategy.count is not None:
            counting[s] = 1
            for code in keys.CARD_CODES:
                tags[s, code] = strategy.count.tags[keys.card_of_code(code).rank.index]
            numerator[s] = strategy.count.threshold.numerator
            denominator[s] = strategy.count.threshold.denominator
    procedure = ruleset.shoe
    job = Job(
        seed,
        shoes,
        procedure.decks,
        procedure.burn,
        procedure.cut_card_from_end,
        procedure.last_coup is LastCoupRule.FINISH,
        (net, event, tags, counting, numerator, denominator),
        batch_shoes,
    )
    return job, tuple(scales)


def simulate(
    ruleset: RuleSet,
    shoes: int,
    *,
    seed: int,
    strategies: Iterable[Strategy] = (),
    workers: int = 1,
    scheduler: str | None = None,
    on_progress: Progress | None = None,
    stop: Event | None = None,
) -> Simulation:
    """Deal ``shoes`` shoes of ``ruleset`` from ``seed`` and settle every bet it offers.

    Runs on ``workers`` threads, or on the Dask cluster at ``scheduler``
    (``tcp://host:port``). A ``KeyboardInterrupt``, or ``stop`` once set (by a caller's
    signal handler), stops the run: the batches already complete are returned, with
    ``interrupted`` set.
    """
    plays = tuple(strategies)
    job, scales = compile_job(ruleset, shoes, seed, plays)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a positive integer, not {workers!r}")
    totals = Totals(len(plays))
    if scheduler is not None:
        from baccarat.analysis.simulate.cluster import run_on_cluster

        interrupted = run_on_cluster(job, scheduler, totals, on_progress, stop)
    else:
        interrupted = run_on_threads(job, workers, totals, on_progress, stop)
    return Simulation(
        ruleset=ruleset,
        strategies=plays,
        scales=scales,
        seed=seed,
        shoes_requested=shoes,
        tally=totals.tally(),
        interrupted=interrupted,
    )

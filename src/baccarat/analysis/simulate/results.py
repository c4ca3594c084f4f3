"""What a simulation found: each bet's observed EV beside the exact one, and each strategy's play.

Every figure is computed from integer tallies: each bet's events are counted exactly,
so its mean and variance per unit staked are exact fractions of those counts, turned
into floats only at the end. The 99% confidence interval is the mean ± 2.576 standard
errors, the standard error being the sample standard deviation over √coups (coups in a
shoe are nearly independent); ``z`` is (observed − exact) / standard error.

>>> from baccarat.rulesets import load_ruleset
>>> from baccarat.analysis.simulate.run import simulate
>>> run = simulate(load_ruleset("standard"), 1000, seed=1)
>>> tie = run.bet("tie")
>>> round(tie.exact, 6), tie.ci99[0] < tie.exact < tie.ci99[1], tie.estimate.trials == run.coups
(-0.143596, True, True)
>>> sorted(run.to_json())[:4]
['bets', 'coups', 'decks', 'interrupted']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from statistics import NormalDist
from typing import Any

import numpy as np

from baccarat.analysis.exact import bet_evs
from baccarat.analysis.simulate import keys
from baccarat.analysis.simulate.batches import Tally
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import RuleSet

__all__ = [
    "QUANTILES",
    "Z99",
    "BetEstimate",
    "Estimate",
    "Simulation",
    "StrategyReport",
    "bet_nets",
]

#: Two-sided 99%: the mean ± Z99 standard errors.
Z99 = NormalDist().inv_cdf(0.995)
#: The quantiles reported of a strategy's net over one shoe.
QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


@dataclass(frozen=True)
class Estimate:
    """A mean per unit staked over ``trials`` trials, with its standard error."""

    trials: int
    ev: float
    stderr: float

    @classmethod
    def of(cls, counts: Sequence[int], nets: Sequence[Fraction]) -> Estimate | None:
        """From how many times each net result happened (None if nothing happened).

        >>> Estimate.of([3, 1], [Fraction(1), Fraction(-1)])
        Estimate(trials=4, ev=0.5, stderr=0.5)
        """
        trials = sum(int(c) for c in counts)
        if trials == 0:
            return None
        total = sum((int(c) * n for c, n in zip(counts, nets, strict=True)), Fraction(0))
        squares = sum((int(c) * n * n for c, n in zip(counts, nets, strict=True)), Fraction(0))
        mean = total / trials
        variance = (squares - trials * mean * mean) / (trials - 1) if trials > 1 else Fraction(0)
        return cls(trials, float(mean), math.sqrt(variance / trials))

    @property
    def ci99(self) -> tuple[float, float]:
        """The 99% confidence interval of the EV."""
        return (self.ev - Z99 * self.stderr, self.ev + Z99 * self.stderr)


@dataclass(frozen=True)
class BetEstimate:
    """One bet's observed EV over every coup dealt, beside its exact full-shoe EV."""

    bet: str
    estimate: Estimate
    exact: float | None
    #: How many coups fell on each event of the bet.
    events: dict[str, int] = field(compare=False)

    @property
    def ev(self) -> float:
        return self.estimate.ev

    @property
    def stderr(self) -> float:
        return self.estimate.stderr

    @property
    def ci99(self) -> tuple[float, float]:
        return self.estimate.ci99

    @property
    def z(self) -> float | None:
        """Standard errors between the observed and the exact EV."""
        if self.exact is None or self.stderr == 0:
            return None
        return (self.ev - self.exact) / self.stderr

    def to_json(self) -> dict[str, object]:
        return {
            "bet": self.bet,
            "coups": self.estimate.trials,
            "ev": self.ev,
            "stderr": self.stderr,
            "ci99": list(self.ci99),
            "exact_ev": self.exact,
            "z": self.z,
            "events": self.events,
        }


@dataclass(frozen=True)
class StrategyReport:
    """How a strategy did: its bets, its EV per bet, and its net per shoe."""

    strategy: Strategy
    estimate: Estimate | None
    #: Net result in units over the whole run.
    net: Fraction
    #: The quantiles of the net over one shoe (units), keyed by ``QUANTILES``.
    shoe_quantiles: dict[float, float]
    exact: float | None
    #: For a counting strategy: (true count, coups, EV) for every true count seen (the
    #: first and last bins hold everything at or beyond ``∓ keys.TC_LIMIT``).
    ev_by_true_count: tuple[tuple[int, Estimate], ...]

    @property
    def bets_made(self) -> int:
        return 0 if self.estimate is None else self.estimate.trials

    def to_json(self) -> dict[str, object]:
        estimate = self.estimate
        return {
            "strategy": self.strategy.text,
            "bet": self.strategy.bet,
            "bets_made": self.bets_made,
            "net": float(self.net),
            "ev": None if estimate is None else estimate.ev,
            "stderr": None if estimate is None else estimate.stderr,
            "ci99": None if estimate is None else list(estimate.ci99),
            "exact_ev": self.exact,
            "bankroll_quantiles": {f"{q:g}": v for q, v in self.shoe_quantiles.items()},
            "ev_by_true_count": [
                {"true_count": tc, "coups": e.trials, "ev": e.ev, "stderr": e.stderr}
                for tc, e in self.ev_by_true_count
            ],
        }


@dataclass(frozen=True)
class Simulation:
    """The outcome of :func:`baccarat.analysis.simulate.run.simulate`."""

    ruleset: RuleSet
    strategies: tuple[Strategy, ...]
    #: Per strategy: its shoe nets are in units of 1/scale.
    scales: tuple[int, ...]
    seed: int
    shoes_requested: int
    tally: Tally
    #: Stopped early (Ctrl-C): the figures cover the complete batches only.
    interrupted: bool = False

    @property
    def shoes(self) -> int:
        return self.tally.shoes

    @property
    def coups(self) -> int:
        return self.tally.coups

    @cached_property
    def exact(self) -> dict[str, float | None]:
        """The exact full-shoe EV of each offered bet (``baccarat.analysis.exact``); None for
        a bet the engine does not price."""
        evs = bet_evs(self.ruleset)
        return {name: float(evs[name]) if name in evs else None for name in self.ruleset.bets}

    @cached_property
    def bets(self) -> tuple[BetEstimate, ...]:
        """Every offered bet's estimate, in the rule set's order (none if no coup was dealt)."""
        out = []
        for name in self.ruleset.bets:
            counts = self.event_counts(name)
            estimate = Estimate.of(counts, bet_nets(self.ruleset, name))
            if estimate is not None:
                names = self.ruleset.bet(name).type.events
                events = {e: int(c) for e, c in zip(names, counts, strict=True) if c}
                out.append(BetEstimate(name, estimate, self.exact.get(name), events))
        return tuple(out)

    def bet(self, name: str) -> BetEstimate:
        """The estimate for one bet."""
        for estimate in self.bets:
            if estimate.bet == name:
                return estimate
        raise KeyError(f"no estimate for {name!r}")

    def event_counts(self, bet: str) -> list[int]:
        """How many coups fell on each event of ``bet`` (in the order of its ``events``)."""
        bet_type = self.ruleset.bet(bet).type
        events = keys.key_events(bet_type)
        dealt = events >= 0  # the other keys no coup has, so none was dealt
        counts = np.zeros(len(bet_type.events), dtype=np.int64)
        np.add.at(counts, events[dealt], self.tally.key_counts[dealt])
        return [int(c) for c in counts]

    @cached_property
    def reports(self) -> tuple[StrategyReport, ...]:
        return tuple(self._report(s, strategy) for s, strategy in enumerate(self.strategies))

    def _report(self, s: int, strategy: Strategy) -> StrategyReport:
        nets = bet_nets(self.ruleset, strategy.bet)
        if strategy.count is None:
            counts = self.event_counts(strategy.bet)
            by_tc: tuple[tuple[int, Estimate], ...] = ()
        else:
            counts = [int(c) for c in self.tally.bet_events[s, : len(nets)]]
            by_tc = tuple(
                (b - keys.TC_LIMIT, estimate)
                for b in range(keys.N_TC_BINS)
                if (estimate := Estimate.of(self.tally.tc_events[s, b, : len(nets)].tolist(), nets))
            )
        values, shoes = self.tally.shoe_nets[s]
        scale = self.scales[s]
        found = _quantiles(values, shoes)
        quantiles = {q: v / scale for q, v in zip(QUANTILES, found, strict=False)}
        return StrategyReport(
            strategy,
            Estimate.of(counts, nets),
            Fraction(sum(int(v) * int(n) for v, n in zip(values, shoes, strict=True)), scale),
            quantiles,
            self.exact.get(strategy.bet) if strategy.count is None else None,
            by_tc,
        )

    def to_json(self) -> dict[str, Any]:
        """The results as one JSON object (``baccarat simulate --json``)."""
        return {
            "rules": self.ruleset.name,
            "decks": self.ruleset.decks,
            "seed": self.seed,
            "shoes_requested": self.shoes_requested,
            "shoes": self.shoes,
            "coups": self.coups,
            "interrupted": self.interrupted,
            "bets": [estimate.to_json() for estimate in self.bets],
            "strategies": [report.to_json() for report in self.reports],
        }


def _quantiles(values: Any, counts: Any) -> list[int]:
    """The ``QUANTILES`` of a histogram: for each q, the least value at or below which lie at
    least q of the observations (numpy's ``inverted_cdf``), found in integers."""
    if len(values) == 0:
        return []
    below = np.cumsum(counts)
    total = int(below[-1])
    return [
        int(values[np.searchsorted(below, math.ceil(Fraction(str(q)) * total))]) for q in QUANTILES
    ]


def bet_nets(ruleset: RuleSet, bet: str) -> tuple[Fraction, ...]:
    """Net result per unit staked of each event of ``bet`` under ``ruleset``, in the order
    of the bet type's ``events``.

    >>> from baccarat.rulesets import load_ruleset
    >>> [str(n) for n in bet_nets(load_ruleset("no-commission"), "banker")]
    ['1', '1/2', '1', '0', '-1']
    """
    rule = ruleset.bet(bet)
    return tuple(rule.payout_for(event).net for event in rule.type.events)

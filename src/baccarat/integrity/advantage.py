"""Advantage play: whose side bets land where the cards left make them worth more than zero.

Before each coup the exact EV of every side bet is known for the cards left in the shoe
(``round_evs``: the compiled float path of ``baccarat.analysis.exact``, which agrees with the
exact one to 1e-12). A player who bets without knowing the cards puts a bet on a coup where
a bet's EV is positive about as often as such coups come up. The table's ``Baseline`` counts,
for each side bet and each depth of the shoe (eighths of its cards dealt), how many coups
there were and in how many the EV was positive; a player who bets late in the shoe is
measured against the late coups.

A player's record on one bet (``PlayerBet``) holds ``m`` bets of which ``k`` were at a
positive EV. Under the null hypothesis (bets placed whatever the cards) ``k`` is a sum of
independent Bernoulli trials with the depth's rate ``q_d`` (Laplace-smoothed:
``(positive + 1) / (coups + 2)``); its p-value is bounded by the binomial tail
``P(Bin(m, q) >= k)`` at the mean rate ``q`` (Hoeffding 1956, valid for ``k >= m q + 1``).
A record is judged when its bets reach a checkpoint (``CHECKPOINTS``: 10, 14, 20, 28, 40,
57, 80, … growing by √2), the j-th (from 0) at ``p <= ALPHA_PLAYER / ((j + 1) (j + 2))``; so a
bettor who ignores the cards is flagged on one bet with probability at most ``ALPHA_PLAYER``
over all its bets (given the baseline rates). Beside it the evidence: stake share at positive EV against its expectation, the
expected gain (sum of stake × EV) and its z-score against the table's EVs at those depths.

>>> baseline = Baseline.start()
>>> for ev in (-0.1, -0.1, 0.2, -0.1):
...     baseline = baseline.observe({"dragon_7": ev}, depth=7)
>>> record = PlayerBet.start("ann", "dragon_7").add(1000, 0.2, 7, round_id=3, at_ms=0)
>>> found = record.score(baseline)
>>> found.bets, found.positive, round(found.expected_positive, 3), found.flagged
(1, 1, 0.333, False)
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from baccarat.analysis.exact.counts import CardCounts, known
from baccarat.analysis.exact.float_path import fast_engine
from baccarat.rulesets import RuleSet

__all__ = [
    "ALPHA_PLAYER",
    "CHECKPOINTS",
    "DEPTHS",
    "MAIN_BETS",
    "Baseline",
    "BetSeen",
    "PlayerBet",
    "Score",
    "binomial_tail",
    "checkpoint_alpha",
    "depth_of",
    "round_evs",
]

#: Family-wise false-alarm bound of one player's record on one bet, over all its bets.
ALPHA_PLAYER = 1e-3
#: A shoe is cut into this many depths (by cards dealt) for the baseline rates.
DEPTHS = 8
#: The bets that are not side bets (no count moves them enough to matter).
MAIN_BETS = frozenset({"player", "banker", "tie"})
#: An EV counts as positive above this (the float path's accuracy).
POSITIVE = 1e-12
#: The numbers of bets at which a record is judged: 10, 14, 20, 28, 40, 57, 80, …
CHECKPOINTS = tuple(round(10 * 2 ** (j / 2)) for j in range(40))
#: Bets kept as evidence per record, the latest.
EVIDENCE = 20
#: Whether one shoe's EVs go through the compiled kernel (about 120 µs against numpy's 280);
#: false once numba turns out to be missing.
_compiled = True


def round_evs(ruleset: RuleSet, before: CardCounts) -> dict[str, float]:
    """The EV per unit staked of each side bet offered, for the cards ``before`` the coup.

    >>> from baccarat.rulesets import load_ruleset
    >>> evs = round_evs(load_ruleset("ez"), CardCounts.full(8))
    >>> sorted(evs)[:3], round(evs["dragon_7"], 4)
    (['banker_pair', 'dragon_7', 'dragon_bonus_banker'], -0.0761)
    """
    global _compiled
    engine = fast_engine(ruleset, "cards", "ev")
    arrays = engine.arrays([known(before)])
    try:
        row = engine.evaluate(*arrays, compiled=_compiled)[0]
    except ImportError:  # no numba (a server-only install): numpy sums the same
        _compiled = False
        row = engine.evaluate(*arrays, compiled=False)[0]
    return {
        name: value
        for (name, _), value in zip(engine.columns, row.tolist(), strict=True)
        if name not in MAIN_BETS
    }


def depth_of(cards_left: int, shoe_cards: int) -> int:
    """Which eighth of the shoe a coup is dealt from (0: the first cards).

    >>> depth_of(416, 416), depth_of(200, 416), depth_of(10, 416)
    (0, 4, 7)
    """
    dealt = max(0, min(shoe_cards, shoe_cards - cards_left))
    return min(DEPTHS - 1, dealt * DEPTHS // shoe_cards)


def _add(row: tuple[float, ...], depth: int, amount: float) -> tuple[float, ...]:
    return (*row[:depth], row[depth] + amount, *row[depth + 1 :])


def _count(row: tuple[int, ...], depth: int, amount: int) -> tuple[int, ...]:
    return (*row[:depth], row[depth] + amount, *row[depth + 1 :])


@dataclass(frozen=True, slots=True)
class BetBaseline:
    """One side bet over a table's coups, per depth: coups, positive ones, sum of EV and EV²."""

    coups: tuple[int, ...] = (0,) * DEPTHS
    positive: tuple[int, ...] = (0,) * DEPTHS
    ev_sum: tuple[float, ...] = (0.0,) * DEPTHS
    ev_squares: tuple[float, ...] = (0.0,) * DEPTHS

    def observe(self, ev: float, depth: int) -> BetBaseline:
        return BetBaseline(
            _count(self.coups, depth, 1),
            _count(self.positive, depth, int(ev > POSITIVE)),
            _add(self.ev_sum, depth, ev),
            _add(self.ev_squares, depth, ev * ev),
        )

    def rate(self, depth: int) -> float:
        """How often the bet's EV is positive at this depth (Laplace-smoothed)."""
        return (self.positive[depth] + 1) / (self.coups[depth] + 2)

    def mean(self, depth: int) -> float:
        n = self.coups[depth]
        return self.ev_sum[depth] / n if n else 0.0

    def variance(self, depth: int) -> float:
        n = self.coups[depth]
        if n < 2:
            return 0.0
        mean = self.ev_sum[depth] / n
        return max(self.ev_squares[depth] / n - mean * mean, 0.0)


@dataclass(frozen=True, slots=True)
class Baseline:
    """Every side bet's baseline on one table."""

    bets: Mapping[str, BetBaseline]

    @classmethod
    def start(cls) -> Baseline:
        return cls(MappingProxyType({}))

    def observe(self, evs: Mapping[str, float], depth: int) -> Baseline:
        """The baseline after one more coup with these EVs."""
        empty = BetBaseline()
        return Baseline(
            MappingProxyType(
                {bet: self.bets.get(bet, empty).observe(ev, depth) for bet, ev in evs.items()}
            )
        )

    def of(self, bet: str) -> BetBaseline:
        return self.bets.get(bet, BetBaseline())


@dataclass(frozen=True, slots=True)
class BetSeen:
    """One bet as evidence: the round, the stake and the bet's EV then."""

    round_id: int
    stake: int
    ev: float
    depth: int
    at_ms: int

    def to_json(self) -> dict[str, object]:
        return {
            "round": self.round_id,
            "stake": self.stake,
            "ev": round(self.ev, 6),
            "depth": self.depth,
            "at_ms": self.at_ms,
        }


@dataclass(frozen=True, slots=True)
class Score:
    """A player's record on one bet, measured: the counts, the p-value and the evidence."""

    player: str
    bet: str
    bets: int
    positive: int
    #: Bets at positive EV expected of a bettor who ignores the cards.
    expected_positive: float
    staked: int
    staked_positive: int
    #: Share of stakes expected at positive EV (stake-weighted depth rates).
    expected_share: float
    #: Sum of stake × EV, in minor units: what the player expects to win.
    expected_gain: float
    #: Of the expected gain against the table's EVs at the same depths.
    gain_z: float
    p_value: float
    #: The p-value at or below which the record alerts now.
    alpha: float
    flagged: bool
    evidence: tuple[BetSeen, ...]

    @property
    def share(self) -> float:
        return self.staked_positive / self.staked if self.staked else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "bet": self.bet,
            "bets": self.bets,
            "positive": self.positive,
            "expected_positive": round(self.expected_positive, 3),
            "staked": self.staked,
            "staked_positive": self.staked_positive,
            "share": round(self.share, 4),
            "expected_share": round(self.expected_share, 4),
            "expected_gain": round(self.expected_gain, 2),
            "gain_z": round(self.gain_z, 3),
            "p_value": self.p_value,
            "alpha": self.alpha,
            "flagged": self.flagged,
            "evidence": [seen.to_json() for seen in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class PlayerBet:
    """One player's bets on one side bet: per depth, how many and how many at positive EV."""

    player: str
    bet: str
    bets: tuple[int, ...]
    positive: tuple[int, ...]
    stakes: tuple[int, ...]
    stake_squares: tuple[int, ...]
    staked_positive: int
    expected_gain: float
    recent: tuple[BetSeen, ...]

    @classmethod
    def start(cls, player: str, bet: str) -> PlayerBet:
        zeros = (0,) * DEPTHS
        return cls(player, bet, zeros, zeros, zeros, zeros, 0, 0.0, ())

    def add(self, stake: int, ev: float, depth: int, *, round_id: int, at_ms: int) -> PlayerBet:
        """The record after one more bet of ``stake`` at ``ev`` and ``depth``."""
        good = ev > POSITIVE
        return replace(
            self,
            bets=_count(self.bets, depth, 1),
            positive=_count(self.positive, depth, int(good)),
            stakes=_count(self.stakes, depth, stake),
            stake_squares=_count(self.stake_squares, depth, stake * stake),
            staked_positive=self.staked_positive + (stake if good else 0),
            expected_gain=self.expected_gain + stake * ev,
            recent=(*self.recent[-(EVIDENCE - 1) :], BetSeen(round_id, stake, ev, depth, at_ms)),
        )

    def score(self, baseline: Baseline) -> Score:
        """The record measured against the table's baseline."""
        base = baseline.of(self.bet)
        m, k = sum(self.bets), sum(self.positive)
        expected = sum(n * base.rate(d) for d, n in enumerate(self.bets))
        staked = sum(self.stakes)
        share = sum(s * base.rate(d) for d, s in enumerate(self.stakes)) / staked if staked else 0.0
        null_gain = sum(s * base.mean(d) for d, s in enumerate(self.stakes))
        spread = math.sqrt(sum(s2 * base.variance(d) for d, s2 in enumerate(self.stake_squares)))
        gain_z = (self.expected_gain - null_gain) / spread if spread > 0 else 0.0
        p_value = binomial_tail(m, k, expected / m) if m else 1.0
        alpha = checkpoint_alpha(m)
        flagged = k >= expected + 1 and p_value <= alpha
        return Score(
            self.player,
            self.bet,
            m,
            k,
            expected,
            staked,
            self.staked_positive,
            share,
            self.expected_gain,
            gain_z,
            p_value,
            alpha,
            flagged,
            self.recent,
        )


def checkpoint_alpha(bets: int) -> float:
    """The threshold of the last checkpoint reached with ``bets`` bets (0 before the first).

    >>> checkpoint_alpha(9), checkpoint_alpha(10), round(checkpoint_alpha(45) / ALPHA_PLAYER, 4)
    (0.0, 0.0005, 0.0333)
    """
    reached = bisect_right(CHECKPOINTS, bets)
    return ALPHA_PLAYER / (reached * (reached + 1)) if reached else 0.0


def binomial_tail(n: int, k: int, p: float) -> float:
    """``P(X >= k)`` for ``X ~ Bin(n, p)``, summed from ``k`` up.

    >>> round(binomial_tail(10, 8, 0.5), 6), binomial_tail(5, 0, 0.3), binomial_tail(3, 4, 0.5)
    (0.054688, 1.0, 0.0)
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    if k <= n * p:
        # Near or below the mean the tail is large: sum the other side instead.
        return max(0.0, 1.0 - _lower_tail(n, k - 1, p))
    log_term = (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )
    term = math.exp(log_term)
    total = term
    ratio = p / (1 - p)
    for j in range(k, n):
        term *= (n - j) / (j + 1) * ratio
        total += term
        if term < total * 1e-16:
            break
    return min(total, 1.0)


def _lower_tail(n: int, k: int, p: float) -> float:
    """``P(X <= k)``, summed from ``k`` down."""
    log_term = (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )
    term = math.exp(log_term)
    total = term
    ratio = (1 - p) / p
    for j in range(k, 0, -1):
        term *= j / (n - j + 1) * ratio
        total += term
        if term < total * 1e-16:
            break
    return min(total, 1.0)

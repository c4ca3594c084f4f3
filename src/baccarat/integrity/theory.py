"""What a table should keep, in theory: each bet's exact edge and variance, and the hold.

A bet's house edge and its variance per unit staked come from the exact odds engine for a
full shoe of the rule set's decks (``baccarat.analysis.exact``), in fractions. The
theoretical hold of a turnover is the exact edge of each bet times its turnover, an exact
``Fraction`` of minor units, rounded to a whole minor unit by ``round`` (half to even).
The z-score says how far the actual result is from it, in standard deviations: the
variance of the house's result on a bet is its variance per unit times the sum of the
squared stakes (each stake an independent wager; the covariance between bets on the same
coup, such as Player and Banker, is left out).

>>> from baccarat.rulesets import load_ruleset
>>> standard = load_ruleset("standard")
>>> f"{float(bet_theory(standard)['banker'].edge):.6f}"
'0.010579'
>>> hold = theoretical_hold(standard, {"banker": 1_000_000, "player": 500_000})
>>> hold.minor, f"{float(hold.exact):.3f}"
(16754, '16754.464')
>>> line = BetLine(turnover=1_000_000, stake_squares=100 * 10_000**2, gross=12_000)
>>> round(report(standard, {"banker": line}).z, 4)
0.0153
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

from baccarat.analysis.exact import exact_odds, full_shoe
from baccarat.rulesets import RuleSet, parse_ruleset

__all__ = [
    "BetLine",
    "BetTheory",
    "Hold",
    "Report",
    "ReportLine",
    "bet_theory",
    "report",
    "theoretical_hold",
]


@dataclass(frozen=True, slots=True)
class BetTheory:
    """One bet of a rule set, per unit staked, for a full shoe: exact EV, edge and variance."""

    bet: str
    ev: Fraction
    #: What the house keeps per unit staked: ``-ev``.
    edge: Fraction
    #: Variance of the bettor's net result per unit staked.
    variance: Fraction


def bet_theory(ruleset: RuleSet) -> Mapping[str, BetTheory]:
    """Each offered bet's exact EV, edge and variance per unit staked (computed once per rule set).

    >>> from baccarat.rulesets import load_ruleset
    >>> tie = bet_theory(load_ruleset("standard"))["tie"]
    >>> f"{float(tie.edge):.5f}", f"{float(tie.variance):.4f}"
    ('0.14360', '6.9742')
    """
    return _theory(ruleset.to_toml())


@lru_cache(maxsize=16)
def _theory(text: str) -> Mapping[str, BetTheory]:
    ruleset = parse_ruleset(text)
    odds = exact_odds(full_shoe(ruleset), ruleset)
    result = {}
    for name, bet in odds.bets.items():
        rule = ruleset.bet(name)
        second = sum(
            (p * rule.payout_for(event).net ** 2 for event, p in bet.event_probabilities.items()),
            Fraction(0),
        )
        result[name] = BetTheory(name, bet.ev, -bet.ev, second - bet.ev**2)
    return MappingProxyType(result)


@dataclass(frozen=True, slots=True)
class Hold:
    """A theoretical hold in minor units: exact, and rounded to a whole minor unit."""

    exact: Fraction

    @property
    def minor(self) -> int:
        """The exact hold rounded to the nearest minor unit (a half to the even one)."""
        return round(self.exact)


def theoretical_hold(ruleset: RuleSet, turnover: Mapping[str, int]) -> Hold:
    """Exact edge × turnover, summed over the bets (turnover in minor units per bet).

    ``KeyError`` for a bet the rule set does not price.
    """
    theory = bet_theory(ruleset)
    return Hold(sum((theory[bet].edge * amount for bet, amount in turnover.items()), Fraction(0)))


@dataclass(frozen=True, slots=True)
class BetLine:
    """What one bet did over a period: turnover, the sum of squared stakes, and gross gaming
    revenue (stakes lost minus winnings paid, all in minor units)."""

    turnover: int
    stake_squares: int
    gross: int


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One bet's actual result beside its theory."""

    bet: str
    turnover: int
    gross: int
    theoretical: Hold
    #: Standard deviation of the gross, in minor units.
    deviation: float

    @property
    def hold_percent(self) -> float | None:
        return None if self.turnover == 0 else 100 * self.gross / self.turnover

    @property
    def z(self) -> float | None:
        """How many standard deviations the gross is from the theoretical hold."""
        if self.deviation == 0:
            return None
        return float(self.gross - self.theoretical.exact) / self.deviation


@dataclass(frozen=True, slots=True)
class Report:
    """Every bet's line and the total, with its z-score."""

    lines: tuple[ReportLine, ...]

    @property
    def turnover(self) -> int:
        return sum(line.turnover for line in self.lines)

    @property
    def gross(self) -> int:
        return sum(line.gross for line in self.lines)

    @property
    def theoretical(self) -> Hold:
        return Hold(sum((line.theoretical.exact for line in self.lines), Fraction(0)))

    @property
    def z(self) -> float | None:
        variance = sum(line.deviation**2 for line in self.lines)
        if variance == 0:
            return None
        return float(self.gross - self.theoretical.exact) / math.sqrt(variance)


def report(ruleset: RuleSet, lines: Mapping[str, BetLine]) -> Report:
    """Each bet's gross beside its theoretical hold, in the rule set's order of bets."""
    theory = bet_theory(ruleset)
    result = []
    for bet in (name for name in ruleset.bets if name in lines):
        line = lines[bet]
        variance = theory[bet].variance * line.stake_squares
        result.append(
            ReportLine(
                bet,
                line.turnover,
                line.gross,
                Hold(theory[bet].edge * line.turnover),
                math.sqrt(variance),
            )
        )
    unknown = set(lines) - {line.bet for line in result}
    if unknown:
        raise KeyError(f"rule set {ruleset.name!r} does not offer {', '.join(sorted(unknown))}")
    return Report(tuple(result))

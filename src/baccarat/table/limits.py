"""A table's stake limits as an operator sets them between rounds, and what they make of each
bet's limits.

An operator names the table's minimum and maximum stake per spot, and may lower the maximum of
some bets. Each bet's limits then move with the table's in the proportion the rule set gives
them, as a rule set that ``extends`` another at other stakes does (``baccarat.rulesets``): the
table's range is the lowest minimum and the highest maximum of its bets, and a bet whose
minimum was twice the table's stays twice the new one.

A round is played under the limits it opened with: they are stored with it, as every bet's
``(min, max)`` (``limits_text``), and read back over its shoe's rule set (``round_ruleset``).

>>> from baccarat.rulesets import load_ruleset
>>> standard = load_ruleset("standard")
>>> table_range(standard)
(100, 1000000)
>>> limits = TableLimits(200, 500_000, {"tie": 50_000})
>>> per_bet = bet_limits(standard, limits)
>>> per_bet["banker"], per_bet["tie"], per_bet["perfect_pair"]
((200, 500000), (200, 50000), (200, 25000))
>>> played = round_ruleset(standard, limits_text(per_bet))
>>> played.bet("tie").max_stake, played.bet("tie").pays == standard.bet("tie").pays
(50000, True)
>>> round_ruleset(standard, None) is standard
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from baccarat.rulesets import RuleSet

__all__ = [
    "LimitsError",
    "TableLimits",
    "bet_limits",
    "check_limits",
    "limits_text",
    "parse_limits_text",
    "round_ruleset",
    "table_range",
    "with_bet_limits",
]


class LimitsError(ValueError):
    """Limits that cannot apply to a rule set: which bet, and why."""


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The table's minimum and maximum stake per spot, and a lower maximum for some bets."""

    min_stake: int
    max_stake: int
    bet_max: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """As stored and audited.

        >>> TableLimits(100, 900, {"tie": 200}).to_json()
        {'min_stake': 100, 'max_stake': 900, 'bets': {'tie': {'max_stake': 200}}}
        >>> TableLimits.from_json(TableLimits(100, 900, {"tie": 200}).to_json())
        TableLimits(min_stake=100, max_stake=900, bet_max={'tie': 200})
        """
        bets = {name: {"max_stake": high} for name, high in sorted(self.bet_max.items())}
        return {"min_stake": self.min_stake, "max_stake": self.max_stake, "bets": bets}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableLimits:
        bets = data.get("bets") or {}
        return cls(
            int(data["min_stake"]),
            int(data["max_stake"]),
            {name: int(spec["max_stake"]) for name, spec in bets.items()},
        )


def table_range(ruleset: RuleSet) -> tuple[int, int]:
    """The table's minimum and maximum: the lowest minimum and the highest maximum of its bets."""
    rules = ruleset.bets.values()
    return min(rule.min_stake for rule in rules), max(rule.max_stake for rule in rules)


def bet_limits(ruleset: RuleSet, limits: TableLimits) -> dict[str, tuple[int, int]]:
    """Each offered bet's ``(min, max)`` under ``limits``: moved with the table's range, then
    the bet's own maximum where one is given (a bet the rule set does not offer is left out).
    ``LimitsError`` if a bet's minimum would pass its maximum.

    >>> from baccarat.rulesets import load_ruleset
    >>> bet_limits(load_ruleset("standard"), TableLimits(100, 1_000_000))["tie"]
    (100, 200000)
    >>> bet_limits(load_ruleset("standard"), TableLimits(100, 1_000, {"tie": 50}))
    Traceback (most recent call last):
    ...
    baccarat.table.limits.LimitsError: tie: its minimum (100) would be above its maximum (50)
    """
    old_min, old_max = table_range(ruleset)
    low_factor = Fraction(limits.min_stake, old_min)
    high_factor = Fraction(limits.max_stake, old_max)
    found: dict[str, tuple[int, int]] = {}
    for name, rule in ruleset.bets.items():
        # Rounded as ``extends`` rounds them: the same table gets the same limits either way.
        low = max(1, round(rule.min_stake * low_factor))
        high = limits.bet_max.get(name, max(1, round(rule.max_stake * high_factor)))
        if low > high:
            raise LimitsError(f"{name}: its minimum ({low}) would be above its maximum ({high})")
        found[name] = (low, high)
    return found


def check_limits(ruleset: RuleSet, limits: TableLimits, ceiling: int) -> None:
    """Refuse (``LimitsError``) limits an operator may not set on a table of ``ruleset``: a
    minimum below 1 or above the maximum, a maximum above ``ceiling``, a bet not offered, a
    bet's maximum above the table's, or a bet's minimum that would pass its maximum.

    >>> from baccarat.rulesets import load_ruleset
    >>> check_limits(load_ruleset("standard"), TableLimits(500, 100), 10**9)
    Traceback (most recent call last):
    ...
    baccarat.table.limits.LimitsError: the minimum (500) is above the maximum (100)
    >>> check_limits(load_ruleset("standard"), TableLimits(100, 900, {"dragon_7": 50}), 10**9)
    Traceback (most recent call last):
    ...
    baccarat.table.limits.LimitsError: 'standard' does not offer 'dragon_7'
    """
    if limits.min_stake < 1:
        raise LimitsError(f"the minimum ({limits.min_stake}) must be at least 1")
    if limits.min_stake > limits.max_stake:
        message = f"the minimum ({limits.min_stake}) is above the maximum ({limits.max_stake})"
        raise LimitsError(message)
    if limits.max_stake > ceiling:
        raise LimitsError(f"the maximum ({limits.max_stake}) is above the most allowed ({ceiling})")
    for name, high in limits.bet_max.items():
        if name not in ruleset.bets:
            raise LimitsError(f"{ruleset.name!r} does not offer {name!r}")
        if not 1 <= high <= limits.max_stake:
            message = f"{name}: its maximum ({high}) must be 1 to the table's ({limits.max_stake})"
            raise LimitsError(message)
    bet_limits(ruleset, limits)


def with_bet_limits(ruleset: RuleSet, per_bet: Mapping[str, tuple[int, int]]) -> RuleSet:
    """``ruleset`` with the bets named in ``per_bet`` at those limits (pays, chips, shoe: its own)."""
    bets = {
        name: replace(rule, min_stake=per_bet[name][0], max_stake=per_bet[name][1])
        if name in per_bet
        else rule
        for name, rule in ruleset.bets.items()
    }
    return replace(ruleset, bets=MappingProxyType(bets))


def limits_text(per_bet: Mapping[str, tuple[int, int]]) -> str:
    """Every bet's limits as a round keeps them (JSON, sorted: the same limits, the same text).

    >>> limits_text({"tie": (100, 500), "banker": (100, 900)})
    '{"banker":[100,900],"tie":[100,500]}'
    """
    data = {name: [low, high] for name, (low, high) in per_bet.items()}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def parse_limits_text(text: str) -> dict[str, tuple[int, int]]:
    """The bets' limits a round kept (``limits_text``).

    >>> parse_limits_text('{"tie":[100,500]}')
    {'tie': (100, 500)}
    """
    data: dict[str, list[int]] = json.loads(text)
    return {name: (int(pair[0]), int(pair[1])) for name, pair in data.items()}


def round_ruleset(ruleset: RuleSet, stored: str | None) -> RuleSet:
    """The rule set a round was played under: its shoe's, with the limits the round kept
    (``None``: the shoe's own)."""
    if stored is None:
        return ruleset
    return with_bet_limits(ruleset, parse_limits_text(stored))

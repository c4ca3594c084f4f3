"""Settling wagers on a coup, in integer minor units.

All wagers are checked before any is settled: an unknown bet, a bet the rule set
does not offer or a stake that is not a positive integer refuses the whole call.

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> from baccarat.rulesets import load_ruleset
>>> coup = deal(parse_cards("4h 3c 2d 2s 7h"))          # Player 6 beats Banker 2
>>> settlement = settle({"player": 1000, "banker": 1000, "tie": 100}, coup, load_ruleset("standard"))
>>> [(w.bet, w.result.value, w.returned) for w in settlement]
[('player', 'win', 2000), ('banker', 'lose', 0), ('tie', 'lose', 0)]
>>> settlement.staked, settlement.returned, settlement.net
(2100, 2000, -100)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from baccarat.bets import BET_TYPES
from baccarat.coup import Coup
from baccarat.payout import Payout, Result
from baccarat.rulesets import RuleSet

__all__ = ["Settlement", "SettlementError", "WagerResult", "settle", "validate_wagers"]


class SettlementError(ValueError):
    """Wagers that cannot be settled; nothing was settled."""


@dataclass(frozen=True, slots=True)
class WagerResult:
    """One settled wager: the event it fell on, its result and the amount returned (stake included)."""

    bet: str
    stake: int
    event: str
    payout: Payout
    returned: int

    @property
    def result(self) -> Result:
        return self.payout.result

    @property
    def net(self) -> int:
        """Won (positive) or lost (negative) by the bettor, in minor units."""
        return self.returned - self.stake


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every wager of one bettor on one coup, in the order given."""

    wagers: tuple[WagerResult, ...]

    def __iter__(self) -> Iterator[WagerResult]:
        return iter(self.wagers)

    def __len__(self) -> int:
        return len(self.wagers)

    @property
    def staked(self) -> int:
        return sum(w.stake for w in self.wagers)

    @property
    def returned(self) -> int:
        return sum(w.returned for w in self.wagers)

    @property
    def net(self) -> int:
        return self.returned - self.staked


def validate_wagers(wagers: Mapping[str, int], ruleset: RuleSet) -> None:
    """Raise ``SettlementError`` for the first wager that cannot be settled under ``ruleset``."""
    if not wagers:
        raise SettlementError("no wagers given")
    for bet, stake in wagers.items():
        if bet not in BET_TYPES:
            raise SettlementError(f"unknown bet {bet!r} (bets: {', '.join(BET_TYPES)})")
        if not ruleset.offers(bet):
            raise SettlementError(f"rule set {ruleset.name!r} does not offer {bet!r}")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise SettlementError(
                f"stake on {bet!r} must be a positive integer of minor units, not {stake!r}"
            )


def settle(wagers: Mapping[str, int], coup: Coup, ruleset: RuleSet) -> Settlement:
    """Settle each wager (bet name to stake in minor units) on ``coup`` under ``ruleset``."""
    validate_wagers(wagers, ruleset)
    results = []
    for bet, stake in wagers.items():
        rule = ruleset.bet(bet)
        event = rule.type.classify(coup)
        payout = rule.payout_for(event)
        results.append(WagerResult(bet, stake, event, payout, payout.returned(stake)))
    return Settlement(tuple(results))

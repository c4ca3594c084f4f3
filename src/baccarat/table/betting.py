"""Bet validation: what a player may add to a round, checked all at once.

A request maps bet names (spots) to stakes in minor units. It is accepted whole or
refused whole: one bad spot refuses every spot of the request. Limits are per spot and
count what the player already has on that spot in this round.

>>> from baccarat.rulesets import load_ruleset
>>> standard = load_ruleset("standard")
>>> check_bets(standard, {"player": 1000, "tie": 100}, balance=5000)
{'player': 1000, 'tie': 100}
>>> check_bets(standard, {"tie": 150_000}, balance=10**9, placed={"tie": 100_000})
Traceback (most recent call last):
...
baccarat.table.betting.BetError: above_maximum: tie: 250000 in all on this spot is above the maximum of 200000
>>> check_bets(standard, {"player": 1000}, balance=999)
Traceback (most recent call last):
...
baccarat.table.betting.BetError: insufficient_funds: the bets total 1000 but the balance is 999
"""

from __future__ import annotations

from collections.abc import Mapping

from baccarat.bets import BET_TYPES
from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import RuleSet

__all__ = ["BetError", "add_bets", "check_bets", "doubled", "total_staked"]


class BetError(ValueError):
    """A refused bet request, carrying its ``Refusal`` (a stable code and a message for people).

    >>> error = BetError(Refusal(RefusalCode.EMPTY, "a bet names at least one spot"))
    >>> error.code, error.message
    (<RefusalCode.EMPTY: 'empty_bet'>, 'a bet names at least one spot')
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal

    @property
    def code(self) -> RefusalCode:
        return self.refusal.code

    @property
    def message(self) -> str:
        return self.refusal.message


def _refuse(code: RefusalCode, message: str) -> BetError:
    return BetError(Refusal(code, message))


def total_staked(bets: Mapping[str, int]) -> int:
    """The sum of the stakes.

    >>> total_staked({"player": 1000, "tie": 100})
    1100
    """
    return sum(bets.values())


def add_bets(placed: Mapping[str, int], more: Mapping[str, int]) -> dict[str, int]:
    """Stakes per spot after adding ``more`` to ``placed``.

    >>> add_bets({"player": 100}, {"player": 50, "tie": 10})
    {'player': 150, 'tie': 10}
    """
    merged = dict(placed)
    for spot, stake in more.items():
        merged[spot] = merged.get(spot, 0) + stake
    return merged


def doubled(bets: Mapping[str, int]) -> dict[str, int]:
    """Every stake twice over (the ``double`` of a previous round).

    >>> doubled({"banker": 500, "tie": 100})
    {'banker': 1000, 'tie': 200}
    """
    return {spot: 2 * stake for spot, stake in bets.items()}


def check_bets(
    ruleset: RuleSet,
    request: Mapping[str, int],
    *,
    balance: int,
    placed: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Return ``request`` as a plain dict if the whole of it may be placed, else raise ``BetError``.

    ``placed`` is what the player already has on each spot in this round; ``balance`` is the
    player's money not yet staked.
    """
    if not request:
        raise _refuse(RefusalCode.EMPTY, "a bet names at least one spot")
    already = placed or {}
    for spot, stake in request.items():
        if spot not in BET_TYPES:
            known = ", ".join(BET_TYPES)
            raise _refuse(RefusalCode.UNKNOWN_BET, f"unknown bet {spot!r} (bets: {known})")
        if not ruleset.offers(spot):
            offered = ", ".join(ruleset.bets)
            raise _refuse(
                RefusalCode.NOT_OFFERED,
                f"this table ({ruleset.name}) does not offer {spot!r} (offered: {offered})",
            )
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise _refuse(
                RefusalCode.BAD_STAKE,
                f"{spot}: a stake is a positive whole number of minor units, not {stake!r}",
            )
        rule = ruleset.bets[spot]
        total = already.get(spot, 0) + stake
        if total < rule.min_stake:
            raise BetError(
                Refusal(
                    RefusalCode.BELOW_MINIMUM,
                    f"{spot}: {total} on this spot is below the minimum of {rule.min_stake}",
                    limit=rule.min_stake,
                    spot=spot,
                )
            )
        if total > rule.max_stake:
            raise BetError(
                Refusal(
                    RefusalCode.ABOVE_MAXIMUM,
                    f"{spot}: {total} in all on this spot is above the maximum of {rule.max_stake}",
                    limit=rule.max_stake,
                    spot=spot,
                )
            )
    cost = total_staked(request)
    if cost > balance:
        raise _refuse(
            RefusalCode.INSUFFICIENT_FUNDS, f"the bets total {cost} but the balance is {balance}"
        )
    return dict(request)

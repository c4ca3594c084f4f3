"""The third-card rules (the tableau) as two small pure functions.

Every decision comes with the rule that made it, so a coup can say why a hand
drew or stood.

>>> player_decision(5)
Decision(draws=True, rule='player draws on 0-5')
>>> banker_decision(3, 8)
Decision(draws=False, rule='banker 3 stands when the player third card is 8')
>>> banker_decision(6, None)
Decision(draws=False, rule='player stood: banker stands on 6-7')
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "BANKER_DRAWS_ON",
    "NATURAL_RULE",
    "Decision",
    "banker_decision",
    "banker_draws",
    "is_natural",
    "player_decision",
    "player_draws",
]

NATURAL_RULE = "natural: no third card"

#: For each Banker total when the Player drew: the Player third-card values on which Banker draws.
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


class Decision(NamedTuple):
    """Whether a hand draws a third card, and the rule that says so."""

    draws: bool
    rule: str


def is_natural(two_card_total: int) -> bool:
    """A two-card 8 or 9 is a natural."""
    return two_card_total >= 8


def player_decision(player_total: int) -> Decision:
    """The Player's decision on two cards when neither hand has a natural."""
    _check_total(player_total)
    if player_total <= 5:
        return Decision(True, "player draws on 0-5")
    if player_total <= 7:
        return Decision(False, "player stands on 6-7")
    return Decision(False, NATURAL_RULE)


def banker_decision(banker_total: int, player_third: int | None) -> Decision:
    """The Banker's decision on two cards, given the value of the Player's third card.

    ``player_third`` is ``None`` when the Player stood. Naturals are decided before
    this is asked; a Banker 8 or 9 never draws.
    """
    _check_total(banker_total)
    if banker_total >= 8:
        return Decision(False, NATURAL_RULE)
    if player_third is None:
        if banker_total <= 5:
            return Decision(True, "player stood: banker draws on 0-5")
        return Decision(False, "player stood: banker stands on 6-7")
    if not 0 <= player_third <= 9:
        raise ValueError(f"a card value is 0-9, not {player_third}")
    draws = player_third in BANKER_DRAWS_ON[banker_total]
    verb = "draws" if draws else "stands"
    if banker_total <= 2:
        return Decision(True, f"banker {banker_total} draws on any player third card")
    if banker_total == 7:
        return Decision(False, "banker 7 stands")
    return Decision(
        draws, f"banker {banker_total} {verb} when the player third card is {player_third}"
    )


def player_draws(player_total: int) -> bool:
    """Shorthand for ``player_decision(player_total).draws``."""
    return player_decision(player_total).draws


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Shorthand for ``banker_decision(banker_total, player_third).draws``."""
    return banker_decision(banker_total, player_third).draws


def _check_total(total: int) -> None:
    if not 0 <= total <= 9:
        raise ValueError(f"a hand total is 0-9, not {total}")

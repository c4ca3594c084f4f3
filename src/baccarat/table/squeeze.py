"""Who squeezes a face-down card, and what a squeeze lets anyone do while it lasts.

At a face-down table each card is squeezed before it is turned. As at a real table, the player
with the largest stake on the hand the card belongs to squeezes it: the Player's cards go to
the largest ``player`` stake, the Banker's to the largest ``banker`` stake. A player's stake is
the sum of their bets on that spot; between equal stakes the one who bet first squeezes. With
nobody on that hand the dealer squeezes, at the table's own pace.

While a card is squeezed only its squeezer may peel it or turn it; the peel never shows the
card (its face is sent only with the turn), and the card turns itself at ``deadline``.

>>> bets = [Stake(1, "ann", "player", 500), Stake(2, "bob", "player", 300),
...         Stake(3, "bob", "player", 200), Stake(4, "cy", "tie", 9_000)]
>>> squeezer(bets, "player"), squeezer(bets, "banker")
('ann', None)
>>> squeeze = Squeeze(7, "player", 0, "ann", deadline=20_000)
>>> squeeze.refuse("ann", 7, "player", 0) is None
True
>>> squeeze.refuse("bob", 7, "player", 0).code.value
'not_your_squeeze'
>>> squeeze.refuse("ann", 7, "banker", 0).code.value
'not_now'
>>> squeeze.expired(19_999), squeeze.expired(20_000)
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from baccarat.refusals import Refusal, RefusalCode
from baccarat.table.reveal import HandName

__all__ = ["EDGES", "Squeeze", "Stake", "peel_refusal", "squeezer", "squeezers"]

#: Where a squeezer may take a card: a corner, or a whole side.
EDGES = (
    "top-left",
    "top",
    "top-right",
    "right",
    "bottom-right",
    "bottom",
    "bottom-left",
    "left",
)


@dataclass(frozen=True, slots=True)
class Stake:
    """One bet of a round: ``order`` is its place among the round's bets (earlier is smaller)."""

    order: int
    player_id: str
    spot: str
    stake: int


def squeezer(bets: Iterable[Stake], hand: HandName) -> str | None:
    """The player who squeezes ``hand``'s cards: the largest stake on that spot, the earliest
    bettor among equals; ``None`` (the dealer) when nobody bet on it.

    >>> squeezer([Stake(5, "ann", "banker", 400), Stake(2, "bob", "banker", 400)], "banker")
    'bob'
    >>> squeezer([Stake(1, "ann", "banker", 0)], "banker") is None
    True
    """
    totals: dict[str, int] = {}
    first: dict[str, int] = {}
    for bet in bets:
        if bet.spot != hand or bet.stake <= 0:
            continue
        totals[bet.player_id] = totals.get(bet.player_id, 0) + bet.stake
        first[bet.player_id] = min(first.get(bet.player_id, bet.order), bet.order)
    if not totals:
        return None
    return min(totals, key=lambda player: (-totals[player], first[player]))


def squeezers(bets: Iterable[Stake]) -> dict[HandName, str]:
    """Each hand's squeezer, leaving out a hand the dealer squeezes.

    >>> squeezers([Stake(1, "ann", "banker", 100)])
    {'banker': 'ann'}
    """
    placed = list(bets)
    found: dict[HandName, str] = {}
    for hand in ("player", "banker"):
        player = squeezer(placed, hand)
        if player is not None:
            found[hand] = player
    return found


def peel_refusal(edge: str, progress: float) -> Refusal | None:
    """Why a peel is not one a card can show (``None``: it is): a known edge, and a progress
    from 0 (flat) to 1 (peeled to the turn).

    >>> peel_refusal("bottom-right", 0.5) is None
    True
    >>> peel_refusal("middle", 0.5).message
    "edge must be one of top-left, top, top-right, right, bottom-right, bottom, bottom-left, left, not 'middle'"
    >>> peel_refusal("top", float("nan")).code.value
    'invalid_request'
    """
    if edge not in EDGES:
        return Refusal(
            RefusalCode.INVALID_REQUEST, f"edge must be one of {', '.join(EDGES)}, not {edge!r}"
        )
    if not math.isfinite(progress) or not 0.0 <= progress <= 1.0:
        return Refusal(RefusalCode.INVALID_REQUEST, "progress must be a number from 0 to 1")
    return None


@dataclass(frozen=True, slots=True)
class Squeeze:
    """The card being squeezed: its round and place, its squeezer (``None``: the dealer) and
    when it turns itself (epoch ms)."""

    round_id: int
    hand: HandName
    position: int
    player_id: str | None
    deadline: int

    def refuse(
        self, player_id: str | None, round_id: int, hand: str, position: int
    ) -> Refusal | None:
        """Why ``player_id`` may not peel or turn the card at ``(round_id, hand, position)``
        now (``None``: they may)."""
        if (round_id, hand, position) != (self.round_id, self.hand, self.position):
            return Refusal(RefusalCode.NOT_NOW, "that card is not being squeezed now")
        if self.player_id is None:
            return Refusal(RefusalCode.NOT_YOUR_SQUEEZE, "the dealer squeezes this card")
        if player_id != self.player_id:
            return Refusal(
                RefusalCode.NOT_YOUR_SQUEEZE,
                "only the player with the largest stake on this hand squeezes its cards",
            )
        return None

    def expired(self, now: int) -> bool:
        """Whether the card turns itself now: its time is up."""
        return now >= self.deadline

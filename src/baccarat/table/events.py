"""What happened to a round, as records: each operation of ``Round`` returns the ones it made.

An event is a frozen value naming the round and what changed, in the domain's own terms
(cards, coups, milliseconds). The shell turns them into messages (``baccarat.server.events``);
nothing here knows how they are sent, or to whom.

Fixing a coup's cards makes no event: the cards leave the table only as they are turned.

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> from baccarat.table.reveal import reveal_order
>>> first = reveal_order(deal(parse_cards("4h 3c 2d 2s 7h")))[0]
>>> CardTurned(7, first)
CardTurned(round_id=7, card=RevealedCard(hand='player', position=0, index=0, card=Card.parse('4h')))
"""

from __future__ import annotations

from dataclasses import dataclass

from baccarat.coup import Coup, Outcome
from baccarat.table.reveal import HandName, RevealedCard

__all__ = [
    "BetsClosed",
    "CardSqueezed",
    "CardTurned",
    "ResultShown",
    "RoundEvent",
    "RoundOpened",
    "RoundSettled",
    "RoundVoided",
]


@dataclass(frozen=True, slots=True)
class RoundOpened:
    """Bets are taken from ``opened_at`` until just before ``closes_at`` (epoch ms)."""

    round_id: int
    opened_at: int
    closes_at: int


@dataclass(frozen=True, slots=True)
class BetsClosed:
    """No more bets: the round closed at ``closed_at``."""

    round_id: int
    closed_at: int


@dataclass(frozen=True, slots=True)
class CardSqueezed:
    """Face down: the card at this place is about to be turned (its value is not told), by
    ``by`` (the squeezer's public name; ``None``: the dealer) at ``deadline`` at the latest."""

    round_id: int
    hand: HandName
    position: int
    by: str | None = None
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class CardTurned:
    """One card shown."""

    round_id: int
    card: RevealedCard


@dataclass(frozen=True, slots=True)
class ResultShown:
    """Every card of the coup is shown: its result is known to all."""

    round_id: int
    coup: Coup


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """Every bet of the round was paid or taken."""

    round_id: int
    winner: Outcome
    settled_at: int


@dataclass(frozen=True, slots=True)
class RoundVoided:
    """The round is cancelled and every stake returned, for ``reason``."""

    round_id: int
    reason: str
    voided_at: int


#: Every event a round's operations make.
RoundEvent = (
    RoundOpened | BetsClosed | CardSqueezed | CardTurned | ResultShown | RoundSettled | RoundVoided
)

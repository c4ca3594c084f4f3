"""What a studio table makes of a card read: the one rule, before anything is stored.

A card-reading shoe reads a card whenever the dealer draws one; whether it may be next depends
on the table: the burn first, then only the round's due slot once betting has closed. The
runtime asks ``judge`` and carries out its verdict in one transaction; ``due`` says what the
dealer's console and the device are told to do next.

>>> from baccarat.table.round import Round
>>> from baccarat.table.studio_shoe import Certificate, StudioShoe
>>> shoe = StudioShoe.new(Certificate("ani", 0, burn=False))
>>> r = Round.open(1, opened_at=0, closes_at=10).round
>>> due(shoe, r), judge(shoe, r, "s:1", Card.parse("Ah"), before_time="void")
('wait_bets', GameBeforeTime(void=True))
>>> r = r.close(10).round
>>> due(shoe, r), judge(shoe, r, "s:1", Card.parse("Ah"), before_time="void")
('player_1', Take(use=<Use.COUP: 'coup'>, position='player_1'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.table.round import Phase, Round
from baccarat.table.settings import BeforeTime
from baccarat.table.studio_shoe import Read, StudioShoe, Use, slot_name

__all__ = [
    "BeforeTime",
    "GameBeforeTime",
    "Impossible",
    "Repeat",
    "Take",
    "Verdict",
    "due",
    "judge",
]


@dataclass(frozen=True, slots=True)
class Take:
    """The card counts: it goes to ``position`` as ``use``."""

    use: Use
    position: str


@dataclass(frozen=True, slots=True)
class Repeat:
    """A read sent again (same ``scan_id``, same card): answered as the first time."""

    read: Read


@dataclass(frozen=True, slots=True)
class Impossible:
    """A read that cannot be next: the table halts for a supervisor; nothing is settled."""

    reason: str


@dataclass(frozen=True, slots=True)
class GameBeforeTime:
    """A card drawn while betting is open ("game before time"): the round is voided (every
    stake back), or on a table that says so, the card is burned and betting goes on."""

    void: bool


Verdict = Take | Repeat | Impossible | GameBeforeTime


def judge(
    shoe: StudioShoe,
    current: Round | None,
    scan_id: str,
    card: Card,
    *,
    before_time: BeforeTime,
    dummy: Sequence[Card] | None = None,
) -> Verdict:
    """What ``card``, read as ``scan_id``, is on a table whose shoe is ``shoe`` and whose round
    in play is ``current`` (``None``, or a finished one: between rounds); ``dummy``: the cards
    of a dummy hand being dealt (after a misdeal, by the house's rule), which takes the next.

    >>> from baccarat.table.studio_shoe import Certificate
    >>> shoe = StudioShoe.new(Certificate("ani", 0, decks=1))
    >>> judge(shoe, None, "s:1", Card.parse("9c"), before_time="void")
    Take(use=<Use.BURN: 'burn'>, position='burn_1')
    >>> shoe = shoe.read("s:1", Card.parse("9c"), at=0, use=Use.BURN, by="d")
    >>> judge(shoe, None, "s:1", Card.parse("9c"), before_time="void").read.position
    'burn_1'
    >>> judge(shoe, None, "s:1", Card.parse("8c"), before_time="void")
    Impossible(reason="scan 's:1' was read as 9c, now as 8c")
    >>> judge(shoe, None, "s:2", Card.parse("9c"), before_time="void")
    Impossible(reason='the shoe holds no more 9c (1 decks)')
    """
    first = shoe.repeat(scan_id)
    if first is not None:
        if first.card != card:
            return Impossible(f"scan {scan_id!r} was read as {first.card.code}, now as {card.code}")
        return Repeat(first)
    why = shoe.refuse(card)
    if why is not None:
        return Impossible(why)
    burning = shoe.burn_due
    if burning > 0:
        return Take(Use.BURN, f"burn_{len(shoe.reads) + 1}")
    if dummy is not None and due_slot(dummy) is not None:
        return Take(Use.DUMMY, slot_name(dummy))
    if current is not None and current.phase is Phase.OPEN:
        return GameBeforeTime(void=before_time == "void")
    if current is not None and current.due() is not None:
        return Take(Use.COUP, slot_name(current.drawn))
    if shoe.finished:
        return Impossible("the shoe is finished: no coup is due")
    return Impossible("no card is due: the coup is complete")


def due(shoe: StudioShoe | None, current: Round | None, dummy: Sequence[Card] | None = None) -> str:
    """What the table waits for: ``shoe_change``, ``burn``, ``wait_bets`` (betting is open or
    about to be), a slot such as ``player_1``, or ``result`` (the coup is complete).

    >>> due(None, None)
    'shoe_change'
    """
    if shoe is None:
        return "shoe_change"
    if shoe.burn_due > 0:
        return "burn"
    if dummy is not None and due_slot(dummy) is not None:
        return slot_name(dummy)
    if current is not None and current.phase is Phase.CLOSED and current.due() is not None:
        return slot_name(current.drawn)
    if current is not None and current.phase is Phase.DEALT:
        return "result"
    if shoe.finished and (current is None or current.phase.final):
        return "shoe_change"
    return "wait_bets"

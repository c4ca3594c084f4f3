"""A studio's physical shoe, as its reads tell it: the burn, the coups, the cut card, the end.

A studio table has no seed: its shoe is whatever the dealer shuffled and loaded, and what the
server knows of it is the shuffle certificate and every card read as it left. ``StudioShoe``
holds both and answers what the next read may be. The procedure is the house's (the rule
set's ``ShoeProcedure``): the first card read is turned and as many more burned as its value
(tens and faces burn 10); the cut card sits ``cut_card`` cards from the end, and comes out
with the card behind it (or when the shoe reports it); the coup in which it came out is
finished and, by the last-coup rule, one more is dealt.

Each operation returns the next shoe; the shoe never changes in place.

>>> from baccarat.cards import parse_cards
>>> shoe = StudioShoe.new(Certificate("ani", 0, decks=8, cut_card=14))
>>> shoe.burn_due
1
>>> shoe = shoe.read("s:1", Card.parse("3h"), at=1, use=Use.BURN, by="device:1")
>>> shoe.burn_due, shoe.reads[-1].position
(3, 'burn_1')
>>> for n, card in enumerate(parse_cards("Kd 4c 9s"), 2):
...     shoe = shoe.read(f"s:{n}", card, at=n, use=Use.BURN, by="device:1")
>>> shoe.burn_due, shoe.left.total, shoe.refuse(Card.parse("Kd"))
(0, 412, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.shoe import (
    MAX_COUP_CARDS,
    CardCounts,
    LastCoupRule,
    ShoeError,
    burn_count,
    check_decks,
)

__all__ = ["Certificate", "Read", "StudioShoe", "Use", "slot_name"]


@dataclass(frozen=True, slots=True)
class Certificate:
    """Who shuffled the shoe and how it was loaded: what a studio shoe has instead of a seed.

    >>> Certificate("ani", 0, decks=9)
    Traceback (most recent call last):
    ...
    baccarat.shoe.ShoeError: a shoe holds 1 to 8 decks, not 9
    """

    shuffled_by: str
    #: When, epoch milliseconds.
    shuffled_at: int
    decks: int = 8
    #: The serial numbers of the decks, where the house records them.
    deck_serials: tuple[str, ...] = ()
    #: Where the cut card was placed: this many cards behind it.
    cut_card: int = 14
    burn: bool = True
    last_coup: LastCoupRule = LastCoupRule.ONE_MORE

    def __post_init__(self) -> None:
        check_decks(self.decks)
        if not self.shuffled_by.strip():
            raise ShoeError("a shuffle certificate names who shuffled")
        if not 0 <= self.cut_card <= 52 * self.decks - MAX_COUP_CARDS:
            raise ShoeError(
                f"the cut card must be 0 to {52 * self.decks - MAX_COUP_CARDS} cards from the end"
            )
        if len(self.deck_serials) > self.decks:
            raise ShoeError(f"{len(self.deck_serials)} deck serials for {self.decks} decks")

    def to_json(self) -> dict[str, object]:
        return {
            "shuffled_by": self.shuffled_by,
            "shuffled_at": self.shuffled_at,
            "decks": self.decks,
            "deck_serials": list(self.deck_serials),
            "cut_card": self.cut_card,
            "burn": self.burn,
            "last_coup": self.last_coup.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Certificate:
        serials = data.get("deck_serials") or []
        if not isinstance(serials, list):
            raise ShoeError(f"deck_serials is a list, not {serials!r}")
        return cls(
            str(data["shuffled_by"]),
            int(str(data["shuffled_at"])),
            decks=int(str(data.get("decks", 8))),
            deck_serials=tuple(str(s) for s in serials),
            cut_card=int(str(data.get("cut_card", 14))),
            burn=bool(data.get("burn", True)),
            last_coup=LastCoupRule(str(data.get("last_coup", "one-more"))),
        )


class Use(StrEnum):
    """What a card read became."""

    #: Turned or burned before the first coup (``burn_count`` of the first).
    BURN = "burn"
    #: A card of a coup (a round's, or a dummy hand's).
    COUP = "coup"
    #: Drawn while betting was open, on a table that burns such a card.
    BURNED = "burned"
    #: A card of a dummy hand: after a misdeal, the exposed coup dealt on with no bets, so
    #: that the shoe's sequence is kept (the house's rule, a table's ``exposed`` setting).
    DUMMY = "dummy"


@dataclass(frozen=True, slots=True)
class Read:
    """One card that left the shoe, in order (``seq`` from 1)."""

    seq: int
    scan_id: str
    card: Card
    at: int
    use: Use
    #: Where it went: ``burn_2``, ``player_1``, ``banker_3``, ``burned``.
    position: str
    by: str
    #: The round whose coup it is part of (``None``: a burn, or a dummy hand's).
    round_id: int | None = None


def slot_name(drawn: Sequence[Card]) -> str:
    """The position the next card of a coup takes, after ``drawn`` (1-based in its hand).

    >>> from baccarat.cards import parse_cards
    >>> slot_name([]), slot_name(parse_cards("2h 3c 2d 2s"))
    ('player_1', 'player_3')
    """
    slot = due_slot(drawn)
    if slot is None:
        raise ShoeError("the coup is complete")
    return f"{slot.hand}_{slot.position + 1}"


@dataclass(frozen=True, slots=True)
class StudioShoe:
    """A physical shoe: its certificate and every card read from it, in order."""

    certificate: Certificate
    reads: tuple[Read, ...] = ()
    left: CardCounts = field(default_factory=lambda: CardCounts.full(8))
    #: Coups completed (dummy hands included: their cards left the shoe too).
    coups: int = 0
    cut_card_out: bool = False
    #: The cut card came out; one more coup is due (the last-coup rule).
    last_coup_due: bool = False
    ended: bool = False

    @classmethod
    def new(cls, certificate: Certificate) -> StudioShoe:
        return cls(certificate, left=CardCounts.full(certificate.decks))

    @property
    def burn_due(self) -> int:
        """Cards still to read for the burn (0 once done; 1 before the first card)."""
        if not self.certificate.burn:
            return 0
        burned = [read for read in self.reads if read.use is Use.BURN]
        if not burned:
            return 1
        return burn_count(burned[0].card) - len(burned)

    @property
    def finished(self) -> bool:
        """No new coup may start from this shoe."""
        return self.ended or self.left.total < MAX_COUP_CARDS

    def repeat(self, scan_id: str) -> Read | None:
        """The read with ``scan_id`` already taken, if any."""
        return next((read for read in self.reads if read.scan_id == scan_id), None)

    def refuse(self, card: Card) -> str | None:
        """Why ``card`` cannot leave this shoe (``None``: it can)."""
        if not self.left.holds(card):
            return f"the shoe holds no more {card.code} ({self.certificate.decks} decks)"
        return None

    def read(
        self,
        scan_id: str,
        card: Card,
        *,
        at: int,
        use: Use,
        by: str,
        position: str | None = None,
        round_id: int | None = None,
    ) -> StudioShoe:
        """The shoe after ``card`` left it as ``use``. ``ShoeError`` if it cannot have."""
        why = self.refuse(card)
        if why is not None:
            raise ShoeError(why)
        if self.repeat(scan_id) is not None:
            raise ShoeError(f"scan {scan_id!r} was read already")
        if use is Use.BURN:
            if self.burn_due <= 0:
                raise ShoeError("the burn is done")
            position = f"burn_{len([r for r in self.reads if r.use is Use.BURN]) + 1}"
        elif position is None:
            raise ShoeError(f"a {use} card needs its position")
        entry = Read(len(self.reads) + 1, scan_id, card, at, use, position, by, round_id)
        left = self.left.without([card])
        # The cut card comes out with the card behind it (a fair shoe's rule, shoe.Shoe).
        cut = self.cut_card_out or left.total < self.certificate.cut_card
        return replace(self, reads=(*self.reads, entry), left=left, cut_card_out=cut)

    def cut_reported(self) -> StudioShoe:
        """The shoe's reader saw the cut card come out."""
        return replace(self, cut_card_out=True)

    def coup_done(self) -> StudioShoe:
        """A coup (or a dummy hand) is complete: apply the last-coup rule."""
        shoe = replace(self, coups=self.coups + 1)
        if self.last_coup_due:
            return replace(shoe, ended=True)
        if self.cut_card_out:
            if self.certificate.last_coup is LastCoupRule.FINISH:
                return replace(shoe, ended=True)
            return replace(shoe, last_coup_due=True)
        return shoe

    def end(self) -> StudioShoe:
        """The dealer ends the shoe: no new coup starts."""
        return replace(self, ended=True)

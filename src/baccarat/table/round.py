"""The round state machine: open for bets, closed, dealt, settled; or voided with a reason.

Each operation takes the round and returns a ``Transition``: the next round and the events it
made (``baccarat.table.events``). The old round is unchanged, and a refused operation raises
``TransitionError`` and makes nothing. The shell stores the next round as it is (phase,
timestamps, cards, what was shown, the void reason) and sends its events: this module is the
one place that decides what a round may do next.

Time is an ``int`` of milliseconds since the Unix epoch, passed in by the caller: the domain
never reads a clock. A round accepts bets only while it is open and before ``closes_at``.

Once closed, a round takes its cards one at a time (``draw``), as a dealer takes them from a
shoe: it says which slot is due next (``due``), applies the tableau after each card and refuses
a card that cannot be next, whoever its source (a fair shoe, a card-reading shoe, a dealer's
keyboard). ``deal`` is a fold of ``draw`` over a whole coup.

>>> from baccarat.cards import parse_cards
>>> r, events = Round.open(7, opened_at=1_000, closes_at=16_000)
>>> events
(RoundOpened(round_id=7, opened_at=1000, closes_at=16000),)
>>> r.accepts_bets(15_999), r.accepts_bets(16_000)
(True, False)
>>> r, events = r.close(16_000)
>>> events
(BetsClosed(round_id=7, closed_at=16000),)
>>> r.due()
Slot(hand='player', position=0)
>>> for card in parse_cards("4h 3c 2d 2s 7h"):
...     r, events = r.draw(card, 16_010)
>>> r.phase, r.due(), r.coup.winner.value, events
(<Phase.DEALT: 'dealt'>, None, 'player', ())
>>> for card in reveal_order(r.coup):
...     r, events = r.turn(card)
>>> [type(event).__name__ for event in events]
['CardTurned', 'ResultShown']
>>> settled, events = r.settle(20_000)
>>> settled.phase, events
(<Phase.SETTLED: 'settled'>, (RoundSettled(round_id=7, winner=<Outcome.PLAYER: 'player'>, settled_at=20000),))
>>> settled.void("too late", 20_001)
Traceback (most recent call last):
...
baccarat.table.round.TransitionError: round 7: cannot void a settled round
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from baccarat.cards import Card
from baccarat.coup import Coup, Slot, deal, due_slot
from baccarat.shoe import CardCounts
from baccarat.table.events import (
    BetsClosed,
    CardSqueezed,
    CardTurned,
    ResultShown,
    RoundEvent,
    RoundOpened,
    RoundSettled,
    RoundVoided,
)
from baccarat.table.reveal import RevealedCard, drawn_order, reveal_bits, reveal_order

__all__ = ["ACTIONS", "Phase", "Round", "Slot", "Transition", "TransitionError"]


class TransitionError(ValueError):
    """An operation the round's phase does not allow; the round is unchanged."""


class Phase(StrEnum):
    """Where a round is in its life. ``settled`` and ``voided`` are final."""

    OPEN = "open"
    CLOSED = "closed"
    DEALT = "dealt"
    SETTLED = "settled"
    VOIDED = "voided"

    @property
    def final(self) -> bool:
        return self in (Phase.SETTLED, Phase.VOIDED)


#: Every operation on a round and the phases it is allowed from (the whole transition table).
#: ``squeeze`` and ``turn`` are the steps of the reveal: they leave the phase as it is.
ACTIONS: dict[str, frozenset[Phase]] = {
    "bet": frozenset({Phase.OPEN}),
    "close": frozenset({Phase.OPEN}),
    "draw": frozenset({Phase.CLOSED}),
    "deal": frozenset({Phase.CLOSED}),
    "squeeze": frozenset({Phase.DEALT}),
    # A studio turns each card as it is drawn, before the coup is complete.
    "turn": frozenset({Phase.CLOSED, Phase.DEALT}),
    "settle": frozenset({Phase.DEALT}),
    "void": frozenset({Phase.OPEN, Phase.CLOSED, Phase.DEALT}),
}


class Transition(NamedTuple):
    """What an operation made: the next round and its events, in the order they happened."""

    round: Round
    events: tuple[RoundEvent, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a table, immutable: each operation returns the next state."""

    id: int
    phase: Phase
    opened_at: int
    closes_at: int
    #: The coup's cards in deal order, fixed before any is revealed (``None`` until dealt).
    cards: tuple[Card, ...] | None = None
    void_reason: str | None = None
    closed_at: int | None = None
    dealt_at: int | None = None
    #: When it was settled or voided.
    finished_at: int | None = None
    #: The cards turned so far (``baccarat.table.reveal.reveal_bits``): all of them once the
    #: result is shown.
    revealed: int = 0
    #: The cards drawn so far, in deal order: part of a coup while closed, then ``cards``.
    drawn: tuple[Card, ...] = ()

    @classmethod
    def open(cls, round_id: int, *, opened_at: int, closes_at: int) -> Transition:
        """A new round open for bets until ``closes_at``."""
        if closes_at <= opened_at:
            raise ValueError(f"round {round_id}: closes_at must be after opened_at")
        opened = cls(round_id, Phase.OPEN, opened_at, closes_at)
        return Transition(opened, (RoundOpened(round_id, opened_at, closes_at),))

    @property
    def coup(self) -> Coup:
        """The coup of the stored cards (only once dealt)."""
        if self.cards is None:
            raise TransitionError(f"round {self.id}: no cards dealt yet")
        return deal(self.cards)

    def allows(self, action: str) -> bool:
        """Whether ``action`` (a key of ``ACTIONS``) is allowed in the current phase."""
        return self.phase in ACTIONS[action]

    def accepts_bets(self, now: int) -> bool:
        """Open, and the deadline not reached: ``now`` strictly before ``closes_at``."""
        return self.phase is Phase.OPEN and now < self.closes_at

    def turned(self, card: RevealedCard) -> bool:
        """Whether ``card`` (one of this round's) has been turned already."""
        return bool(self.revealed >> card.index & 1)

    def _check(self, action: str) -> None:
        if not self.allows(action):
            raise TransitionError(f"round {self.id}: cannot {action} a {self.phase} round")

    def close(self, now: int, *, early: bool = False) -> Transition:
        """Stop taking bets. Refused before the deadline unless ``early`` (a studio dealer's
        call, where the table allows it)."""
        self._check("close")
        if now < self.closes_at and not early:
            raise TransitionError(f"round {self.id}: cannot close before its deadline")
        closed = replace(self, phase=Phase.CLOSED, closed_at=now)
        return Transition(closed, (BetsClosed(self.id, now),))

    def due(self) -> Slot | None:
        """The slot the next card goes to, or ``None`` when the round is not taking cards
        (not closed yet, or its coup is complete)."""
        if self.phase is not Phase.CLOSED:
            return None
        return due_slot(self.drawn)

    def refuse_draw(self, card: Card, left: CardCounts | None = None) -> str | None:
        """Why ``card`` cannot be the next card (``None``: it can). ``left`` is what the shoe
        held before this card, by its source's record; a card it holds none of is refused."""
        if not self.allows("draw"):
            return f"cannot draw a card for a {self.phase} round"
        slot = due_slot(self.drawn)
        if slot is None:
            return "the coup is complete"
        if left is not None and not left.holds(card):
            return f"the shoe holds no more {card.code}"
        return None

    def can_draw(self, card: Card, left: CardCounts | None = None) -> bool:
        """Whether ``card`` may be the next card of this round (``refuse_draw`` says why not)."""
        return self.refuse_draw(card, left) is None

    def draw(self, card: Card, now: int, *, left: CardCounts | None = None) -> Transition:
        """Take the next card. The card that completes the coup deals the round. Nobody is
        told: the cards leave the table only as they are turned."""
        reason = self.refuse_draw(card, left)
        if reason is not None:
            raise TransitionError(f"round {self.id}: {reason}")
        drawn = (*self.drawn, card)
        if due_slot(drawn) is not None:
            return Transition(replace(self, drawn=drawn), ())
        return Transition(
            replace(self, phase=Phase.DEALT, cards=drawn, drawn=drawn, dealt_at=now), ()
        )

    def deal(self, cards: Sequence[Card], now: int) -> Transition:
        """Draw a whole coup's cards at once (exactly one coup's worth, checked by the tableau).
        Nobody is told: the cards leave the table only as they are turned."""
        self._check("deal")
        if self.drawn:
            raise TransitionError(f"round {self.id}: cards were drawn already")
        deal(cards)  # one coup exactly, or DealError, before anything changes
        state = self
        for card in cards:
            state = state.draw(card, now).round
        return Transition(state, ())

    def _unturned(self, action: str, card: RevealedCard) -> None:
        self._check(action)
        order = drawn_order(self.drawn)
        if card.index >= len(order) or order[card.index] != card:
            raise TransitionError(f"round {self.id}: {card} is not a card of this coup")
        if self.turned(card):
            raise TransitionError(f"round {self.id}: {card} is turned already")

    def squeeze(
        self, card: RevealedCard, *, by: str | None = None, deadline: int | None = None
    ) -> Transition:
        """Face down: announce the place of the card about to be turned, not the card; ``by``
        squeezes it (``None``: the dealer) until ``deadline`` at the latest."""
        self._unturned("squeeze", card)
        return Transition(self, (CardSqueezed(self.id, card.hand, card.position, by, deadline),))

    def turn(self, card: RevealedCard) -> Transition:
        """Show one card; the last one shows the coup's result with it."""
        self._unturned("turn", card)
        turned = replace(self, revealed=self.revealed | reveal_bits([card]))
        events: tuple[RoundEvent, ...] = (CardTurned(self.id, card),)
        if self.phase is Phase.DEALT and turned.revealed == reveal_bits(reveal_order(self.coup)):
            events += (ResultShown(self.id, self.coup),)
        return Transition(turned, events)

    def settle(self, now: int) -> Transition:
        """Every bet of the round has been paid or taken."""
        self._check("settle")
        settled = replace(self, phase=Phase.SETTLED, finished_at=now)
        return Transition(settled, (RoundSettled(self.id, self.coup.winner, now),))

    def void(self, reason: str, now: int) -> Transition:
        """Cancel the round and return every stake; allowed from any phase before settled."""
        self._check("void")
        if not reason.strip():
            raise ValueError("a void needs a reason")
        voided = replace(self, phase=Phase.VOIDED, void_reason=reason, finished_at=now)
        return Transition(voided, (RoundVoided(self.id, reason, now),))

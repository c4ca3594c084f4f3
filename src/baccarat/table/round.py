"""The round state machine: open for bets, closed, dealt, settled; or voided with a reason.

Time is an ``int`` of milliseconds since the Unix epoch, passed in by the caller: the domain
never reads a clock. A round accepts bets only while it is open and before ``closes_at``.

>>> from baccarat.cards import parse_cards
>>> r = Round.open(7, opened_at=1_000, closes_at=16_000)
>>> r.accepts_bets(15_999), r.accepts_bets(16_000)
(True, False)
>>> r = r.close(16_000).deal(parse_cards("4h 3c 2d 2s 7h"))
>>> r.phase, r.coup.winner.value
(<Phase.DEALT: 'dealt'>, 'player')
>>> r.settle().phase
<Phase.SETTLED: 'settled'>
>>> r.settle().void("too late")
Traceback (most recent call last):
...
baccarat.table.round.TransitionError: round 7: cannot void a settled round
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from baccarat.cards import Card
from baccarat.coup import Coup, deal

__all__ = ["ACTIONS", "Phase", "Round", "TransitionError"]


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
ACTIONS: dict[str, frozenset[Phase]] = {
    "bet": frozenset({Phase.OPEN}),
    "close": frozenset({Phase.OPEN}),
    "deal": frozenset({Phase.CLOSED}),
    "settle": frozenset({Phase.DEALT}),
    "void": frozenset({Phase.OPEN, Phase.CLOSED, Phase.DEALT}),
}


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

    @classmethod
    def open(cls, round_id: int, *, opened_at: int, closes_at: int) -> Round:
        """A new round open for bets until ``closes_at``."""
        if closes_at <= opened_at:
            raise ValueError(f"round {round_id}: closes_at must be after opened_at")
        return cls(round_id, Phase.OPEN, opened_at, closes_at)

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

    def _check(self, action: str) -> None:
        if not self.allows(action):
            raise TransitionError(f"round {self.id}: cannot {action} a {self.phase} round")

    def close(self, now: int) -> Round:
        """Stop taking bets. Refused before the deadline: a round never closes early."""
        self._check("close")
        if now < self.closes_at:
            raise TransitionError(f"round {self.id}: cannot close before its deadline")
        return replace(self, phase=Phase.CLOSED)

    def deal(self, cards: Sequence[Card]) -> Round:
        """Fix the coup's cards (exactly one coup's worth, checked by the tableau)."""
        self._check("deal")
        deal(cards)
        return replace(self, phase=Phase.DEALT, cards=tuple(cards))

    def settle(self) -> Round:
        """Every bet of the round has been paid or taken."""
        self._check("settle")
        return replace(self, phase=Phase.SETTLED)

    def void(self, reason: str) -> Round:
        """Cancel the round and return every stake; allowed from any phase before settled."""
        self._check("void")
        if not reason.strip():
            raise ValueError("a void needs a reason")
        return replace(self, phase=Phase.VOIDED, void_reason=reason)

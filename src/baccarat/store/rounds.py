"""Rounds as stored: open, close under the round's lock by the database clock, store cards.

``close_round`` is the other half of the bet transaction's check: both take the round's
lock (``FOR UPDATE`` on PostgreSQL, the database write lock on SQLite), and a bet commits
only if the database clock is still before ``closes_at``. So every accepted bet is
committed before the close, and the cards are drawn only after the close.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from baccarat.cards import Card, parse_cards
from baccarat.store.clock import db_now
from baccarat.store.schema import rounds
from baccarat.table import Phase, Round
from baccarat.table.reveal import RoundFace, round_face

__all__ = [
    "RoundRow",
    "close_round",
    "get_round",
    "last_finished_round",
    "open_round",
    "record_reveal",
    "shoe_rounds",
    "store_cards",
    "unfinished_rounds",
]


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round as stored, with its table, shoe and number in the shoe."""

    id: int
    table_id: str
    shoe_id: str
    number: int
    phase: Phase
    opened_at: int
    closes_at: int
    closed_at: int | None
    cards: tuple[Card, ...] | None
    void_reason: str | None
    finished_at: int | None
    #: The cards shown so far (``baccarat.table.reveal.reveal_bits``).
    revealed: int = 0

    def face(self) -> RoundFace:
        """What anyone may see of this round now: the one rule every view goes through."""
        return round_face(self.cards, self.revealed, settled=self.phase is Phase.SETTLED)

    def domain(self) -> Round:
        """The pure round state."""
        return Round(
            self.id, self.phase, self.opened_at, self.closes_at, self.cards, self.void_reason
        )


def _row(row: Any) -> RoundRow:
    return RoundRow(
        id=row.id,
        table_id=row.table_id,
        shoe_id=row.shoe_id,
        number=row.number,
        phase=Phase(row.phase),
        opened_at=row.opened_at,
        closes_at=row.closes_at,
        closed_at=row.closed_at,
        cards=None if row.cards is None else tuple(parse_cards(row.cards)),
        void_reason=row.void_reason,
        finished_at=row.finished_at,
        revealed=row.revealed,
    )


def get_round(connection: Connection, round_id: int, *, lock: bool = False) -> RoundRow | None:
    query = select(rounds).where(rounds.c.id == round_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    row = connection.execute(query).first()
    return None if row is None else _row(row)


def lock_rounds(connection: Connection, round_ids: Sequence[int]) -> dict[int, RoundRow]:
    """The rounds named, locked for the rest of the transaction (sorted, so no deadlock)."""
    query = select(rounds).where(rounds.c.id.in_(sorted(set(round_ids)))).order_by(rounds.c.id)
    if connection.dialect.name == "postgresql":
        query = query.with_for_update()
    return {row.id: _row(row) for row in connection.execute(query)}


def open_round(
    connection: Connection, *, table_id: str, shoe_id: str, number: int, betting_ms: int
) -> RoundRow:
    """A new round open for bets from the database's now for ``betting_ms``."""
    now = db_now(connection)
    result = connection.execute(
        rounds.insert().values(
            table_id=table_id,
            shoe_id=shoe_id,
            number=number,
            phase=Phase.OPEN.value,
            opened_at=now,
            closes_at=now + betting_ms,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    row = get_round(connection, int(key[0]))
    assert row is not None
    return row


def close_round(connection: Connection, round_id: int) -> RoundRow | int:
    """Close the round if the database clock has reached its deadline.

    Returns the closed round, or the milliseconds still to wait (the round stays open).
    Closing a round already closed returns it unchanged.
    """
    row = get_round(connection, round_id, lock=True)
    if row is None:
        raise LookupError(f"no round {round_id}")
    if row.phase is not Phase.OPEN:
        return row
    now = db_now(connection)
    if now < row.closes_at:
        return row.closes_at - now
    row.domain().close(now)  # the state machine's own check
    connection.execute(
        update(rounds)
        .where(rounds.c.id == round_id, rounds.c.phase == Phase.OPEN.value)
        .values(phase=Phase.CLOSED.value, closed_at=now)
    )
    closed = get_round(connection, round_id)
    assert closed is not None
    return closed


def store_cards(connection: Connection, round_id: int, cards: Sequence[Card], at: int) -> RoundRow:
    """Fix the coup's cards (before any is revealed)."""
    row = get_round(connection, round_id, lock=True)
    if row is None:
        raise LookupError(f"no round {round_id}")
    dealt = row.domain().deal(cards)
    connection.execute(
        update(rounds)
        .where(rounds.c.id == round_id, rounds.c.phase == Phase.CLOSED.value)
        .values(
            phase=dealt.phase.value,
            cards=" ".join(card.code for card in cards),
            dealt_at=at,
        )
    )
    stored = get_round(connection, round_id)
    assert stored is not None
    return stored


def record_reveal(connection: Connection, round_id: int, revealed: int) -> None:
    """Add the cards in ``revealed`` (``reveal_bits``) to those shown of a dealt round.

    Called only after the cards' events are published, so that no reader sees a card first;
    the bits are only ever added, so a resumed reveal never hides a card already shown.
    """
    connection.execute(
        update(rounds)
        .where(rounds.c.id == round_id, rounds.c.phase == Phase.DEALT.value)
        .values(revealed=rounds.c.revealed.op("|")(revealed))
    )


def unfinished_rounds(connection: Connection, table_id: str) -> list[RoundRow]:
    """The table's rounds neither settled nor voided, oldest first."""
    query = select(rounds).where(
        rounds.c.table_id == table_id,
        rounds.c.phase.in_([Phase.OPEN.value, Phase.CLOSED.value, Phase.DEALT.value]),
    )
    return [_row(row) for row in connection.execute(query.order_by(rounds.c.id))]


def last_finished_round(connection: Connection, table_id: str) -> RoundRow | None:
    """The table's newest round that is settled or voided, if any."""
    query = (
        select(rounds)
        .where(
            rounds.c.table_id == table_id,
            rounds.c.phase.in_([Phase.SETTLED.value, Phase.VOIDED.value]),
        )
        .order_by(rounds.c.id.desc())
        .limit(1)
    )
    row = connection.execute(query).first()
    return None if row is None else _row(row)


def shoe_rounds(connection: Connection, shoe_id: str) -> list[RoundRow]:
    """Every round of the shoe in order."""
    query = select(rounds).where(rounds.c.shoe_id == shoe_id).order_by(rounds.c.id)
    return [_row(row) for row in connection.execute(query)]

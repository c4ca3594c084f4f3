"""Rounds as stored: each change of a round is the state machine's, written as it returned it.

A round row is the round's place (table, shoe, number in the shoe) and its state, a
``baccarat.table.Round``. Every function here that moves a round asks the round
(``open``, ``close``, ``deal``) and writes the round it returned, whole (``_save``): phase,
timestamps, cards and void reason are never decided here. Each returns a ``RoundChange``,
the row as stored now and the events the round reported, for the caller to send.

``close_round`` is the other half of the bet transaction's check: both take the round's
lock (``FOR UPDATE`` on PostgreSQL, the database write lock on SQLite), and a bet commits
only if the database clock is still before ``closes_at``. So every accepted bet is
committed before the close, and the cards are drawn only after the close.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from sqlalchemy import Connection, func, select, text, update

from baccarat.cards import Card, parse_cards
from baccarat.coup import due_slot
from baccarat.shoe import CardCounts
from baccarat.store.clock import db_now
from baccarat.store.schema import rounds
from baccarat.table import ACTIONS, Phase, Round, RoundEvent
from baccarat.table.reveal import RoundFace, round_face

__all__ = [
    "RoundChange",
    "RoundRow",
    "close_round",
    "get_round",
    "last_finished_round",
    "lock_rounds",
    "open_round",
    "record_reveal",
    "save_round",
    "shoe_rounds",
    "store_cards",
    "store_draws",
    "unfinished_rounds",
]

_UNFINISHED = [phase.value for phase in Phase if not phase.final]
_FINISHED = [phase.value for phase in Phase if phase.final]
#: The phases in which cards are turned (the state machine's ``turn``).
_TURNING = sorted(phase.value for phase in ACTIONS["turn"])


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round as stored: its table, shoe and number in the shoe, and its state."""

    id: int
    table_id: str
    shoe_id: str
    number: int
    state: Round
    #: Every bet's limits the round opened under (``baccarat.table.limits.limits_text``);
    #: ``None``: its shoe's rule set's own.
    limits: str | None = None

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def opened_at(self) -> int:
        return self.state.opened_at

    @property
    def closes_at(self) -> int:
        return self.state.closes_at

    @property
    def closed_at(self) -> int | None:
        return self.state.closed_at

    @property
    def cards(self) -> tuple[Card, ...] | None:
        return self.state.cards

    @property
    def void_reason(self) -> str | None:
        return self.state.void_reason

    @property
    def finished_at(self) -> int | None:
        return self.state.finished_at

    @property
    def revealed(self) -> int:
        """The cards shown so far (``baccarat.table.reveal.reveal_bits``)."""
        return self.state.revealed

    def face(self) -> RoundFace:
        """What anyone may see of this round now: the one rule every view goes through."""
        return round_face(self.state.drawn, self.revealed, settled=self.phase is Phase.SETTLED)


class RoundChange(NamedTuple):
    """A round after one of its operations: the row as stored now, and the events it made."""

    row: RoundRow
    events: tuple[RoundEvent, ...]


def _row(row: Any) -> RoundRow:
    # One column holds the cards drawn so far; they are the coup once it is complete.
    drawn = () if row.cards is None else tuple(parse_cards(row.cards))
    state = Round(
        id=row.id,
        phase=Phase(row.phase),
        opened_at=row.opened_at,
        closes_at=row.closes_at,
        cards=drawn if drawn and due_slot(drawn) is None else None,
        drawn=drawn,
        void_reason=row.void_reason,
        closed_at=row.closed_at,
        dealt_at=row.dealt_at,
        finished_at=row.finished_at,
        revealed=row.revealed,
    )
    return RoundRow(row.id, row.table_id, row.shoe_id, row.number, state, row.limits)


def _columns(state: Round) -> dict[str, Any]:
    """The round's state as its columns hold it."""
    return {
        "phase": state.phase.value,
        "opened_at": state.opened_at,
        "closes_at": state.closes_at,
        "closed_at": state.closed_at,
        "cards": " ".join(card.code for card in state.drawn) if state.drawn else None,
        "dealt_at": state.dealt_at,
        "revealed": state.revealed,
        "void_reason": state.void_reason,
        "finished_at": state.finished_at,
    }


def save_round(connection: Connection, row: RoundRow, state: Round) -> RoundRow:
    """Write ``state``, the round the state machine returned from ``row``'s, in its place.

    The update holds only if the stored phase is still ``row``'s (the caller holds the
    round's lock, so it is): a round is never moved from a state it was not in.
    """
    if state.id != row.id:
        raise ValueError(f"round {state.id} is not round {row.id}")
    result = connection.execute(
        update(rounds)
        .where(rounds.c.id == row.id, rounds.c.phase == row.phase.value)
        .values(**_columns(state))
    )
    if result.rowcount != 1:
        raise RuntimeError(f"round {row.id} is no longer {row.phase}")
    return replace(row, state=state)


def get_round(connection: Connection, round_id: int, *, lock: bool = False) -> RoundRow | None:
    query = select(rounds).where(rounds.c.id == round_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    row = connection.execute(query).first()
    return None if row is None else _row(row)


def _locked(connection: Connection, round_id: int) -> RoundRow:
    row = get_round(connection, round_id, lock=True)
    if row is None:
        raise LookupError(f"no round {round_id}")
    return row


def lock_rounds(
    connection: Connection, round_ids: Sequence[int], *, share: bool = False
) -> dict[int, RoundRow]:
    """The rounds named, locked for the rest of the transaction (sorted, so no deadlock).

    ``share``: a lock that other sharers hold too (bets, from every node at once) but that
    every change of the round (its close, its settlement) waits for, and the reverse.
    """
    query = select(rounds).where(rounds.c.id.in_(sorted(set(round_ids)))).order_by(rounds.c.id)
    if connection.dialect.name == "postgresql":
        query = query.with_for_update(read=share)
    return {row.id: _row(row) for row in connection.execute(query)}


def _new_round_id(connection: Connection) -> int:
    """The id of the next round, taken before its row is written (the round is made with it).

    PostgreSQL: the id column's own sequence. SQLite: one past the largest, which is what
    SQLite itself would give; the writer holds the database lock for the whole transaction.
    """
    if connection.dialect.name == "postgresql":
        query: Any = text("SELECT nextval(pg_get_serial_sequence('rounds', 'id'))")
    else:
        query = select(func.coalesce(func.max(rounds.c.id), 0) + 1)
    return int(connection.execute(query).scalar_one())


def open_round(
    connection: Connection,
    *,
    table_id: str,
    shoe_id: str,
    number: int,
    betting_ms: int,
    limits: str | None = None,
) -> RoundChange:
    """A new round open for bets from the database's now for ``betting_ms``, under
    ``limits`` (every bet's, as ``baccarat.table.limits.limits_text`` writes them; ``None``:
    the shoe's rule set's)."""
    now = db_now(connection)
    opened = Round.open(_new_round_id(connection), opened_at=now, closes_at=now + betting_ms)
    state = opened.round
    connection.execute(
        rounds.insert().values(
            id=state.id,
            table_id=table_id,
            shoe_id=shoe_id,
            number=number,
            limits=limits,
            **_columns(state),
        )
    )
    row = RoundRow(state.id, table_id, shoe_id, number, state, limits)
    return RoundChange(row, opened.events)


def close_round(connection: Connection, round_id: int, *, early: bool = False) -> RoundChange | int:
    """Close the round if the database clock has reached its deadline (or now, ``early``: a
    studio dealer's call).

    Returns the change, or the milliseconds still to wait (the round stays open). A round
    closed already is returned unchanged, with no event.
    """
    row = _locked(connection, round_id)
    if not row.state.allows("close"):
        return RoundChange(row, ())
    now = db_now(connection)
    if row.state.accepts_bets(now) and not early:
        return row.closes_at - now
    closed = row.state.close(now, early=early)
    return RoundChange(save_round(connection, row, closed.round), closed.events)


def store_cards(
    connection: Connection, round_id: int, cards: Sequence[Card], at: int
) -> RoundChange:
    """Fix the coup's cards (before any is revealed)."""
    row = _locked(connection, round_id)
    dealt = row.state.deal(cards, at)
    return RoundChange(save_round(connection, row, dealt.round), dealt.events)


def store_draws(
    connection: Connection, *, round_id: int, cards: Sequence[tuple[Card, CardCounts | None]]
) -> RoundChange | None:
    """Add ``cards`` to the round's coup in one transaction, each checked by the round with
    what the shoe held before it (``None``: not known); stored before anyone may see them.

    ``None`` if the round no longer takes cards (voided since it closed); a card the round
    refuses raises ``TransitionError`` and nothing is written.
    """
    current = get_round(connection, round_id, lock=True)
    if current is None or not current.state.allows("draw"):
        return None
    state, at = current.state, db_now(connection)
    for card, left in cards:
        state = state.draw(card, at, left=left).round
    return RoundChange(save_round(connection, current, state), ())


def record_reveal(connection: Connection, round_id: int, revealed: int) -> None:
    """Add the cards in ``revealed`` (a turned round's ``revealed``) to those stored as shown.

    Called only after the cards' events are published, so that no reader sees a card first;
    the bits are only ever added, so a resumed reveal never hides a card already shown. A
    round past its reveal (settled) is left alone.
    """
    connection.execute(
        update(rounds)
        .where(rounds.c.id == round_id, rounds.c.phase.in_(_TURNING))
        .values(revealed=rounds.c.revealed.op("|")(revealed))
    )


def unfinished_rounds(connection: Connection, table_id: str) -> list[RoundRow]:
    """The table's rounds neither settled nor voided, oldest first."""
    query = select(rounds).where(rounds.c.table_id == table_id, rounds.c.phase.in_(_UNFINISHED))
    return [_row(row) for row in connection.execute(query.order_by(rounds.c.id))]


def last_finished_round(connection: Connection, table_id: str) -> RoundRow | None:
    """The table's newest round that is settled or voided, if any."""
    query = (
        select(rounds)
        .where(rounds.c.table_id == table_id, rounds.c.phase.in_(_FINISHED))
        .order_by(rounds.c.id.desc())
        .limit(1)
    )
    row = connection.execute(query).first()
    return None if row is None else _row(row)


def shoe_rounds(connection: Connection, shoe_id: str) -> list[RoundRow]:
    """Every round of the shoe in order."""
    query = select(rounds).where(rounds.c.shoe_id == shoe_id).order_by(rounds.c.id)
    return [_row(row) for row in connection.execute(query)]

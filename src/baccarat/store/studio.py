"""A studio table's reads as stored: every card that left its physical shoe, in order, and the
reads that did not count (an impossible card, a misscan waiting for its supervisor).

The shoe's state is never kept anywhere else: ``studio_shoe`` rebuilds it from the reads and
the rounds they went to, so a restart, or another node taking the table over, goes on from
exactly the cards stored. A read is stored in the transaction that gives it to its round, so
a card is never shown before it is stored, and never counted twice (``scan_id`` is unique per
table: a device's retry finds the first read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, select, update

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.shoe import LastCoupRule
from baccarat.store.schema import studio_desks, studio_reads
from baccarat.store.shoes import ShoeRow
from baccarat.table.studio_shoe import Certificate, Read, StudioShoe, Use

__all__ = [
    "PendingRead",
    "add_pending",
    "add_read",
    "find_scan",
    "pending_reads",
    "resolve_pending",
    "seat_dealer",
    "seated_dealer",
    "set_aside",
    "shoe_reads",
    "studio_shoe",
]

#: Reads that do not count until a supervisor says: an impossible card halts the table, a
#: misscan typed by hand counts once confirmed.
_PENDING = ("impossible", "misscan")


@dataclass(frozen=True, slots=True)
class PendingRead:
    """A read waiting for a supervisor (``kind``: ``impossible`` or ``misscan``)."""

    id: int
    kind: str
    scan_id: str
    card: Card
    reason: str
    at: int
    read_by: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "scan_id": self.scan_id,
            "card": self.card.code,
            "reason": self.reason,
            "at": self.at,
            "read_by": self.read_by,
        }


def _read(row: Any) -> Read:
    return Read(
        row.seq,
        row.scan_id,
        Card.parse(row.card),
        row.at,
        Use(row.use),
        row.position,
        row.read_by,
        row.round_id,
    )


def shoe_reads(connection: Connection, shoe_id: str) -> list[Read]:
    """Every card read from the shoe that counted, in order."""
    query = (
        select(studio_reads)
        .where(studio_reads.c.shoe_id == shoe_id, studio_reads.c.seq.is_not(None))
        .order_by(studio_reads.c.seq)
    )
    return [_read(row) for row in connection.execute(query)]


def studio_shoe(connection: Connection, shoe: ShoeRow, last_coup: LastCoupRule) -> StudioShoe:
    """The shoe as its reads tell it: the burn, each coup completed, the cut card and the
    last-coup rule replayed in order (a coup voided part-way counts no coup)."""
    assert shoe.certificate is not None
    certificate = Certificate.from_json({**shoe.certificate, "last_coup": last_coup.value})
    state = StudioShoe.new(certificate)
    coup: list[Card] = []
    coup_round: int | None = None
    for read in shoe_reads(connection, shoe.id):
        dealt = read.use in (Use.COUP, Use.DUMMY)  # a dummy hand goes on its round's coup
        if dealt and read.round_id != coup_round:
            coup, coup_round = [], read.round_id
        state = state.read(
            read.scan_id,
            read.card,
            at=read.at,
            use=read.use,
            by=read.by,
            position=read.position,
            round_id=read.round_id,
        )
        if dealt:
            coup.append(read.card)
            if due_slot(coup) is None:
                state, coup = state.coup_done(), []
    if shoe.ended:
        state = state.end()
    return state


def find_scan(connection: Connection, table_id: str, scan_id: str) -> Any | None:
    """The stored row of ``scan_id`` at the table (a retry of a read), if any."""
    query = select(studio_reads).where(
        studio_reads.c.table_id == table_id, studio_reads.c.scan_id == scan_id
    )
    return connection.execute(query).first()


def add_read(connection: Connection, table_id: str, shoe_id: str, read: Read) -> None:
    """Store a read that counts (the shoe's next, ``read.seq``)."""
    connection.execute(
        studio_reads.insert().values(
            table_id=table_id,
            shoe_id=shoe_id,
            scan_id=read.scan_id,
            card=read.card.code,
            use=read.use.value,
            seq=read.seq,
            position=read.position,
            round_id=read.round_id,
            at=read.at,
            read_by=read.by,
        )
    )


def add_pending(
    connection: Connection,
    *,
    table_id: str,
    shoe_id: str,
    kind: str,
    scan_id: str,
    card: Card,
    reason: str,
    at: int,
    read_by: str,
    round_id: int | None,
) -> PendingRead:
    """Store a read that waits for a supervisor (it halts the table, or holds its next card)."""
    assert kind in _PENDING
    result = connection.execute(
        studio_reads.insert().values(
            table_id=table_id,
            shoe_id=shoe_id,
            scan_id=scan_id,
            card=card.code,
            use=kind,
            seq=None,
            position=None,
            round_id=round_id,
            at=at,
            read_by=read_by,
            reason=reason[:200],
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    read_id = int(key[0])
    return PendingRead(read_id, kind, scan_id, card, reason, at, read_by)


def pending_reads(connection: Connection, table_id: str) -> list[PendingRead]:
    """The reads waiting for a supervisor at the table, oldest first."""
    query = (
        select(studio_reads)
        .where(
            studio_reads.c.table_id == table_id,
            studio_reads.c.use.in_(_PENDING),
            studio_reads.c.resolved_at.is_(None),
        )
        .order_by(studio_reads.c.id)
    )
    return [
        PendingRead(
            row.id,
            row.use,
            row.scan_id,
            Card.parse(row.card),
            row.reason or "",
            row.at,
            row.read_by,
        )
        for row in connection.execute(query)
    ]


def resolve_pending(
    connection: Connection, read_id: int, *, by: str, resolution: str, at: int
) -> bool:
    """Record a supervisor's decision on a pending read; ``False`` if it was resolved."""
    result = connection.execute(
        update(studio_reads)
        .where(studio_reads.c.id == read_id, studio_reads.c.resolved_at.is_(None))
        .values(resolved_by=by, resolution=resolution, resolved_at=at)
    )
    return result.rowcount == 1


def seated_dealer(connection: Connection, table_id: str) -> str | None:
    """The dealer seated at the studio table, if one is."""
    return connection.scalar(
        select(studio_desks.c.dealer).where(studio_desks.c.table_id == table_id)
    )


def seat_dealer(connection: Connection, table_id: str, dealer: str, at: int) -> str | None:
    """Seat ``dealer`` at the table; the dealer who was seated before, if any."""
    before = seated_dealer(connection, table_id)
    connection.execute(delete(studio_desks).where(studio_desks.c.table_id == table_id))
    connection.execute(studio_desks.insert().values(table_id=table_id, dealer=dealer, since=at))
    return before


def set_aside(connection: Connection, shoe_id: str) -> list[dict[str, Any]]:
    """The shoe's reads that never counted, as its record lists them: impossible cards and
    misscans, with the supervisor's decision."""
    query = (
        select(studio_reads)
        .where(studio_reads.c.shoe_id == shoe_id, studio_reads.c.seq.is_(None))
        .order_by(studio_reads.c.id)
    )
    return [
        {
            "kind": row.use,
            "scan_id": row.scan_id,
            "card": row.card,
            "reason": row.reason,
            "at": row.at,
            "by": row.read_by,
            "resolved_by": row.resolved_by,
            "resolution": row.resolution,
        }
        for row in connection.execute(query)
    ]

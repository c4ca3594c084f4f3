"""Shifts of the back office and their figures.

One shift is open at a time (the database refuses a second: ``shifts.open_slot``). A hand-over
closes it and writes its report, per table, in the same transaction: the rounds dealt and
voided, the integrity alerts raised, and, for real and demo money apart, the settled bets,
their stakes (turnover) and what they returned (paid out) over ``[opened_at, closed_at)``.
A settlement writes its ``bet_outcomes`` rows with the same time as its ledger transaction,
so these sums are the ledger's settlements of the span, to the minor unit.

The house's result (hold) is ``turnover - paid``, the players' is its negative.

>>> Money(bets=3, turnover=1_500, paid=1_400).hold
100
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, func, select, text, update

from baccarat.store.schema import (
    bet_outcomes,
    bets,
    game_tables,
    integrity_alerts,
    players,
    rounds,
    shift_reports,
    shifts,
)

__all__ = [
    "Money",
    "Shift",
    "TableFigures",
    "current_shift",
    "figures",
    "get_shift",
    "hand_over",
    "list_shifts",
    "lock_settlements",
    "open_shift",
    "round_stakes",
    "stored_report",
    "totals",
]


@dataclass(frozen=True, slots=True)
class Shift:
    """A shift: who opened it and when; who handed it over, when, and their note."""

    id: int
    opened_at: int
    opened_by: str
    closed_at: int | None
    closed_by: str | None
    note: str | None

    @property
    def open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True, slots=True)
class Money:
    """Settled bets of one kind of money: how many, their stakes and what they returned."""

    bets: int = 0
    turnover: int = 0
    paid: int = 0

    @property
    def hold(self) -> int:
        """The house's result: stakes minus returns."""
        return self.turnover - self.paid

    def __add__(self, other: Money) -> Money:
        return Money(self.bets + other.bets, self.turnover + other.turnover, self.paid + other.paid)


@dataclass(frozen=True, slots=True)
class TableFigures:
    """What one table did over a span."""

    table_id: str
    rounds_dealt: int = 0
    rounds_voided: int = 0
    alerts: int = 0
    real: Money = field(default_factory=Money)
    demo: Money = field(default_factory=Money)


def totals(rows: list[TableFigures]) -> TableFigures:
    """Every table's figures summed (table ``all``).

    >>> totals([TableFigures("a", 2, real=Money(1, 10, 0)), TableFigures("b", 1, alerts=1)])
    TableFigures(table_id='all', rounds_dealt=3, rounds_voided=0, alerts=1, real=Money(bets=1, turnover=10, paid=0), demo=Money(bets=0, turnover=0, paid=0))
    """
    total = TableFigures("all")
    for row in rows:
        total = TableFigures(
            "all",
            total.rounds_dealt + row.rounds_dealt,
            total.rounds_voided + row.rounds_voided,
            total.alerts + row.alerts,
            total.real + row.real,
            total.demo + row.demo,
        )
    return total


def _shift(row: Any) -> Shift:
    return Shift(
        int(row.id), int(row.opened_at), row.opened_by, row.closed_at, row.closed_by, row.note
    )


def current_shift(connection: Connection) -> Shift | None:
    """The open shift, if any."""
    row = connection.execute(select(shifts).where(shifts.c.open_slot == 1)).first()
    return None if row is None else _shift(row)


def get_shift(connection: Connection, shift_id: int) -> Shift | None:
    row = connection.execute(select(shifts).where(shifts.c.id == shift_id)).first()
    return None if row is None else _shift(row)


def list_shifts(connection: Connection, limit: int) -> list[Shift]:
    """The newest shifts first."""
    query = select(shifts).order_by(shifts.c.id.desc()).limit(limit)
    return [_shift(row) for row in connection.execute(query)]


def open_shift(connection: Connection, at: int, by: str) -> Shift | None:
    """Open a shift now, in the caller's transaction; ``None`` while another is open."""
    if current_shift(connection) is not None:
        return None
    shift_id = connection.execute(
        shifts.insert().values(opened_at=at, opened_by=by, open_slot=1)
    ).inserted_primary_key
    assert shift_id is not None
    return Shift(int(shift_id[0]), at, by, None, None, None)


def lock_settlements(connection: Connection) -> None:
    """Hold settlements back until the caller's transaction ends, so that none in flight
    with an earlier time commits after the caller has read the figures. SQLite's writers
    already take turns (``BEGIN IMMEDIATE``); PostgreSQL's need the table lock."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("LOCK TABLE bet_outcomes IN SHARE MODE"))


def hand_over(
    connection: Connection, shift: Shift, at: int, by: str, note: str | None
) -> list[TableFigures]:
    """Close the open ``shift`` at ``at`` and store its report, in the caller's transaction
    (which called ``lock_settlements`` before reading ``at``); the report's rows."""
    connection.execute(
        update(shifts)
        .where(shifts.c.id == shift.id)
        .values(closed_at=at, closed_by=by, note=note, open_slot=None)
    )
    rows = figures(connection, shift.opened_at, at)
    if rows:
        connection.execute(
            shift_reports.insert(),
            [
                {
                    "shift_id": shift.id,
                    "table_id": row.table_id,
                    "rounds_dealt": row.rounds_dealt,
                    "rounds_voided": row.rounds_voided,
                    "alerts": row.alerts,
                    "real_bets": row.real.bets,
                    "real_turnover": row.real.turnover,
                    "real_paid": row.real.paid,
                    "demo_bets": row.demo.bets,
                    "demo_turnover": row.demo.turnover,
                    "demo_paid": row.demo.paid,
                }
                for row in rows
            ],
        )
    return rows


def stored_report(connection: Connection, shift_id: int) -> list[TableFigures]:
    """The report a hand-over stored, per table."""
    query = (
        select(shift_reports)
        .where(shift_reports.c.shift_id == shift_id)
        .order_by(shift_reports.c.table_id)
    )
    return [
        TableFigures(
            r.table_id,
            int(r.rounds_dealt),
            int(r.rounds_voided),
            int(r.alerts),
            Money(int(r.real_bets), int(r.real_turnover), int(r.real_paid)),
            Money(int(r.demo_bets), int(r.demo_turnover), int(r.demo_paid)),
        )
        for r in connection.execute(query)
    ]


def figures(
    connection: Connection, since_ms: int, until_ms: int | None, table_id: str | None = None
) -> list[TableFigures]:
    """Each table's figures over ``[since_ms, until_ms)`` (``until_ms`` ``None``: up to now),
    every table in service listed, by id."""
    money: dict[str, dict[bool, Money]] = defaultdict(dict)
    settled = (
        select(
            bets.c.table_id,
            players.c.demo,
            func.count(bets.c.id),
            func.coalesce(func.sum(bets.c.stake), 0),
            func.coalesce(func.sum(bet_outcomes.c.returned), 0),
        )
        .select_from(
            bets.join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id).join(
                players, players.c.id == bets.c.player_id
            )
        )
        .where(bet_outcomes.c.kind == "settled", bet_outcomes.c.created_at >= since_ms)
        .group_by(bets.c.table_id, players.c.demo)
    )
    finished = (
        select(rounds.c.table_id, rounds.c.phase, func.count())
        .where(rounds.c.phase.in_(("settled", "voided")), rounds.c.finished_at >= since_ms)
        .group_by(rounds.c.table_id, rounds.c.phase)
    )
    raised = (
        select(integrity_alerts.c.table_id, func.count())
        .where(integrity_alerts.c.raised_at >= since_ms)
        .group_by(integrity_alerts.c.table_id)
    )
    if until_ms is not None:
        settled = settled.where(bet_outcomes.c.created_at < until_ms)
        finished = finished.where(rounds.c.finished_at < until_ms)
        raised = raised.where(integrity_alerts.c.raised_at < until_ms)
    if table_id is not None:
        settled = settled.where(bets.c.table_id == table_id)
        finished = finished.where(rounds.c.table_id == table_id)
        raised = raised.where(integrity_alerts.c.table_id == table_id)
    for table, demo, count, stake, returned in connection.execute(settled):
        money[table][bool(demo)] = Money(int(count), int(stake), int(returned))
    counts: dict[str, dict[str, int]] = defaultdict(dict)
    for table, phase, count in connection.execute(finished):
        counts[table][phase] = int(count)
    alerts = {table: int(count) for table, count in connection.execute(raised)}
    serving = select(game_tables.c.id).where(game_tables.c.retired_at.is_(None))
    if table_id is not None:
        serving = serving.where(game_tables.c.id == table_id)
    ids = {*connection.scalars(serving), *money, *counts, *alerts}
    return [
        TableFigures(
            table,
            counts[table].get("settled", 0),
            counts[table].get("voided", 0),
            alerts.get(table, 0),
            money[table].get(False, Money()),
            money[table].get(True, Money()),
        )
        for table in sorted(ids)
    ]


def round_stakes(connection: Connection, round_id: int) -> dict[str, dict[str, int]]:
    """A round's stakes that count (in play or settled; not undone or voided), per kind of
    money (``real``, ``demo``) and spot, with how many bets (``real_bets``, ``demo_bets``) and
    what the settled ones returned (``real_returned``, ``demo_returned``)."""
    query = (
        select(
            players.c.demo,
            bets.c.spot,
            func.count(bets.c.id),
            func.sum(bets.c.stake),
            func.coalesce(func.sum(bet_outcomes.c.returned), 0),
        )
        .select_from(
            bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id).join(
                players, players.c.id == bets.c.player_id
            )
        )
        .where(
            bets.c.round_id == round_id,
            (bet_outcomes.c.kind.is_(None)) | (bet_outcomes.c.kind == "settled"),
        )
        .group_by(players.c.demo, bets.c.spot)
    )
    found: dict[str, dict[str, int]] = {
        f"{kind}{part}": {} for kind in ("real", "demo") for part in ("", "_bets", "_returned")
    }
    for demo, spot, count, stake, returned in connection.execute(query):
        kind = "demo" if demo else "real"
        found[kind][spot] = int(stake)
        found[f"{kind}_bets"][spot] = int(count)
        found[f"{kind}_returned"][spot] = int(returned)
    return found

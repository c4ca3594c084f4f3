"""Shift managers (operators and admins): open a shift, hand it over with its report; the
figures of a table's monitor.

A hand-over reads its closing time from the database's clock after holding settlements back
(``store.shifts.lock_settlements``), then closes the shift, stores its report and writes the
audit record, in one transaction: a settlement is either in the report or after it, never
both or neither.
"""

from __future__ import annotations

import csv
import io

from sqlalchemy import Connection, select

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_shift_models import (
    MoneyFigures,
    MonitorRound,
    MonitorShift,
    MonitorView,
    ShiftList,
    ShiftTable,
    ShiftView,
)
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.service import Service
from baccarat.store.clock import db_now
from baccarat.store.rounds import RoundRow, get_round
from baccarat.store.schema import rounds
from baccarat.store.shifts import (
    Money,
    Shift,
    TableFigures,
    current_shift,
    figures,
    get_shift,
    hand_over,
    list_shifts,
    lock_settlements,
    open_shift,
    round_stakes,
    stored_report,
    totals,
)
from baccarat.store.shoes import shoe_numbers
from baccarat.store.staff import StaffSession, audit_staff

__all__ = ["ShiftDesk", "money_figures", "shift_csv"]


def money_figures(money: Money) -> MoneyFigures:
    """Settled bets as the API shows them, with the hold and its percentage."""
    percent = None if not money.turnover else round(100 * money.hold / money.turnover, 4)
    return MoneyFigures(
        bets=money.bets,
        turnover=money.turnover,
        paid_out=money.paid,
        hold=money.hold,
        hold_percent=percent,
    )


def _table(row: TableFigures) -> ShiftTable:
    return ShiftTable(
        table_id=row.table_id,
        rounds_dealt=row.rounds_dealt,
        rounds_voided=row.rounds_voided,
        alerts=row.alerts,
        real=money_figures(row.real),
        demo=money_figures(row.demo),
    )


def _view(shift: Shift, rows: list[TableFigures]) -> ShiftView:
    return ShiftView(
        id=shift.id,
        status="open" if shift.open else "closed",
        opened_at=iso_utc(shift.opened_at),
        opened_by=shift.opened_by,
        closed_at=None if shift.closed_at is None else iso_utc(shift.closed_at),
        closed_by=shift.closed_by,
        note=shift.note,
        final=not shift.open,
        tables=[_table(row) for row in rows],
        total=_table(totals(rows)),
    )


def _report(connection: Connection, shift: Shift) -> ShiftView:
    """A handed-over shift with its stored report; an open one with its figures so far."""
    if shift.open:
        return _view(shift, figures(connection, shift.opened_at, None))
    return _view(shift, stored_report(connection, shift.id))


def shift_csv(view: ShiftView) -> str:
    """A shift's report as CSV: a line per table (then ``all``) and kind of money."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    money = list(MoneyFigures.model_fields)
    head = ["shift", "opened_at", "closed_at", "table_id", "rounds_dealt", "rounds_voided"]
    writer.writerow([*head, "alerts", "money", *money])
    for row in [*view.tables, view.total]:
        for kind, figures_ in (("real", row.real), ("demo", row.demo)):
            data = figures_.model_dump()
            writer.writerow(
                [view.id, view.opened_at, view.closed_at or "", row.table_id, row.rounds_dealt]
                + [row.rounds_voided, row.alerts, kind]
                + ["" if data[name] is None else data[name] for name in money]
            )
    return out.getvalue()


class ShiftDesk:
    """The shifts of one server, and its tables' monitor figures."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def shifts(self, limit: int) -> ShiftList:
        def run(c: Connection) -> ShiftList:
            found = list_shifts(c, limit)
            views = [_report(c, shift) for shift in found]
            current = next((v for v in views if v.status == "open"), None)
            if current is None and (open_now := current_shift(c)) is not None:
                current = _report(c, open_now)
            return ShiftList(current=current, shifts=views)

        return await self.service.runner.read(run)

    async def shift(self, shift_id: int) -> ShiftView | Refusal:
        def run(c: Connection) -> ShiftView | Refusal:
            shift = get_shift(c, shift_id)
            if shift is None:
                return Refusal(RefusalCode.SHIFT_NOT_FOUND, f"there is no shift {shift_id}")
            return _report(c, shift)

        return await self.service.runner.read(run)

    async def open(self, session: StaffSession, note: str | None) -> ShiftView | Refusal:
        """Open a shift managed by ``session``'s member; refused while another is open."""

        def run(c: Connection) -> ShiftView | Refusal:
            now = db_now(c)
            shift = open_shift(c, now, session.username)
            if shift is None:
                return Refusal(RefusalCode.SHIFT_OPEN, "a shift is open: it is handed over first")
            details = {"shift": shift.id, "note": note}
            audit_staff(c, now, session, "shift_open", None, details)
            return _view(shift, figures(c, shift.opened_at, None))

        return await self.service.runner.write(run)

    async def hand_over(
        self, session: StaffSession, shift_id: int, note: str | None
    ) -> ShiftView | Refusal:
        """Close the open shift and store its report (the figures of its span)."""

        def run(c: Connection) -> ShiftView | Refusal:
            lock_settlements(c)
            shift = get_shift(c, shift_id)
            if shift is None:
                return Refusal(RefusalCode.SHIFT_NOT_FOUND, f"there is no shift {shift_id}")
            if not shift.open:
                return Refusal(RefusalCode.SHIFT_CLOSED, f"shift {shift_id} is handed over")
            now = max(db_now(c), shift.opened_at)
            rows = hand_over(c, shift, now, session.username, note)
            whole = totals(rows)
            details = {
                "shift": shift.id,
                "opened_by": shift.opened_by,
                "note": note,
                "real_turnover": whole.real.turnover,
                "real_hold": whole.real.hold,
            }
            audit_staff(c, now, session, "shift_hand_over", None, details)
            closed = Shift(shift.id, shift.opened_at, shift.opened_by, now, session.username, note)
            return _view(closed, rows)

        return await self.service.runner.write(run)

    async def monitor(self, table_id: str) -> MonitorView | Refusal:
        """The money side of a table's monitor: real stakes per spot on the round it shows,
        the newest settled round's result, and the table's figures for the open shift."""
        mirror = self.service.tables.get(table_id)
        if mirror is None:
            return Refusal(RefusalCode.TABLE_NOT_FOUND, f"there is no table {table_id!r}")
        shown = mirror.round_id

        def run(c: Connection) -> MonitorView:
            row = None if shown is None else get_round(c, shown)
            last_id = c.scalar(
                select(rounds.c.id)
                .where(rounds.c.table_id == table_id, rounds.c.phase == "settled")
                .order_by(rounds.c.finished_at.desc(), rounds.c.id.desc())
                .limit(1)
            )
            last = None if last_id is None else get_round(c, int(last_id))
            numbers = shoe_numbers(c, [r.shoe_id for r in (row, last) if r is not None])
            shift = current_shift(c)
            table = None
            if shift is not None:
                mine = figures(c, shift.opened_at, None, table_id)
                table = MonitorShift(
                    id=shift.id,
                    opened_at=iso_utc(shift.opened_at),
                    opened_by=shift.opened_by,
                    table=_table(mine[0] if mine else TableFigures(table_id)),
                )
            return MonitorView(
                table_id=table_id,
                round=None if row is None else _round(c, row, numbers),
                last_settled=None if last is None else _round(c, last, numbers),
                shift=table,
            )

        return await self.service.runner.read(run)


def _round(connection: Connection, row: RoundRow, numbers: dict[str, int]) -> MonitorRound:
    stakes = round_stakes(connection, row.id)
    phase = row.phase.value
    result = None
    if phase == "settled":
        money = Money(*(sum(stakes[f"real{part}"].values()) for part in ("_bets", "", "_returned")))
        result = money_figures(money)
    return MonitorRound(
        id=row.id,
        shoe_number=numbers.get(row.shoe_id),
        number=row.number,
        phase=phase,
        stakes=stakes["real"],
        demo_stakes=stakes["demo"],
        result=result,
    )

"""Reports by table, day and bet: turnover, gross gaming revenue (GGR), hold, the
theoretical hold, and how far the actual is from it in standard deviations.

Theory is exact, per rule set (each shoe keeps its own): a bet's house edge ``e`` and the
variance ``v`` of its net result per unit staked, for a full shoe (``baccarat.integrity.
theory``). The theoretical hold of a bet is ``e × turnover``, to the nearest minor unit
(half to even). Every stake on one spot of one round shares that round's outcome, so the
unit of chance is the round's total ``S`` on the spot: the GGR's variance is ``Σ v × S²``,
and
``z = (GGR − e × turnover) / sqrt(Σ v × S²)``. A table's day over all bets has no z here
(the bets of one round are not independent).

>>> from baccarat.rulesets import load_ruleset
>>> theory = bet_theory(load_ruleset("standard"))
>>> f"{float(100 * theory['banker'].edge):.4f}", f"{float(theory['banker'].variance):.4f}"
('1.0579', '0.8600')
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

from baccarat.integrity.theory import BetTheory, bet_theory
from baccarat.rulesets import parse_ruleset
from baccarat.server.admin_models import ReportRow, ReportView
from baccarat.server.clock import Clock
from baccarat.server.service import Service
from baccarat.store.reports import DAY_MS, SpotRound, spot_rounds

__all__ = ["ReportDesk", "report_csv", "report_rows"]


@dataclass
class _Sum:
    rounds: int = 0
    turnover: int = 0
    ggr: int = 0
    theoretical: Fraction = Fraction(0)
    variance: Fraction = Fraction(0)
    edges: set[Fraction] = field(default_factory=set)

    def add(self, spot: SpotRound, theory: BetTheory | None) -> None:
        self.rounds += 1
        self.turnover += spot.stake
        self.ggr += spot.stake - spot.returned
        if theory is not None:
            self.theoretical += theory.edge * spot.stake
            self.variance += theory.variance * spot.stake * spot.stake
            self.edges.add(theory.edge)

    def row(self, table_id: str, day: int, bet: str, *, with_z: bool) -> ReportRow:
        hold = None if not self.turnover else round(100 * self.ggr / self.turnover, 4)
        edge = next(iter(self.edges)) if len(self.edges) == 1 else None
        z = None
        if with_z and self.variance > 0:
            z = round(float(self.ggr - self.theoretical) / math.sqrt(self.variance), 4)
        return ReportRow(
            table_id=table_id,
            day=(date(1970, 1, 1) + timedelta(days=day)).isoformat(),
            bet=bet,
            rounds=self.rounds,
            turnover=self.turnover,
            ggr=self.ggr,
            hold_percent=hold,
            theoretical_hold=round(self.theoretical),
            edge_percent=None if edge is None else round(float(100 * edge), 6),
            z=z,
        )


def report_rows(spots: list[SpotRound]) -> list[ReportRow]:
    """One row per table, day and bet, then the table's day over all bets (``all``)."""
    by_bet: dict[tuple[str, int, str], _Sum] = defaultdict(_Sum)
    by_day: dict[tuple[str, int], _Sum] = defaultdict(_Sum)
    day_rounds: dict[tuple[str, int], set[int]] = defaultdict(set)
    for spot in spots:
        day_rounds[(spot.table_id, spot.day)].add(spot.round_id)
        theory = bet_theory(parse_ruleset(spot.ruleset_toml)).get(spot.bet)
        by_bet[(spot.table_id, spot.day, spot.bet)].add(spot, theory)
        by_day[(spot.table_id, spot.day)].add(spot, theory)
    rows = [total.row(table, day, bet, with_z=True) for (table, day, bet), total in by_bet.items()]
    for (table, day), total in by_day.items():
        total.rounds = len(day_rounds[(table, day)])
        rows.append(total.row(table, day, "all", with_z=False))
    return sorted(rows, key=lambda r: (r.table_id, r.day, r.bet == "all", r.bet))


def report_csv(view: ReportView) -> str:
    """The report as CSV, one line per row, with a header."""
    out = io.StringIO()
    names = list(ReportRow.model_fields)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in view.rows:
        data = row.model_dump()
        writer.writerow(["" if data[name] is None else data[name] for name in names])
    return out.getvalue()


class ReportDesk:
    """The reports of one server."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    def today(self) -> date:
        """The UTC day now, by the server's clock."""
        return datetime.fromtimestamp(self.clock.now_ms() / 1000, UTC).date()

    async def report(
        self, since: date, until: date, table_id: str | None, money: str
    ) -> ReportView:
        """Settlements from the start of ``since`` to the end of ``until`` (UTC days)."""
        start = _ms(since)
        end = _ms(until) + DAY_MS
        demo = {"real": False, "demo": True, "all": None}[money]
        spots = await self.service.runner.read(
            lambda c: spot_rounds(c, since_ms=start, until_ms=end, table_id=table_id, demo=demo)
        )
        return ReportView(
            since=since.isoformat(),
            until=until.isoformat(),
            money=money,
            rows=report_rows(spots),
        )


def _ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()) * 1000

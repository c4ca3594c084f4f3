"""Reports by table, day (or hour) and bet: turnover, gross gaming revenue (GGR), hold, the
theoretical hold, and how far the actual is from it in standard deviations; and per player:
stakes, returns and result over a period, the top winners and losers of real money.

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel

from baccarat.integrity.theory import BetTheory, bet_theory
from baccarat.rulesets import parse_ruleset
from baccarat.server.admin_models import ReportRow, ReportView
from baccarat.server.admin_shift_models import PlayerReportRow, PlayerReportView, TopPlayersView
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.service import Service
from baccarat.store.reports import DAY_MS, SpotRound, player_figures, spot_rounds

__all__ = ["ReportDesk", "player_report_csv", "report_csv", "report_rows"]


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

    def row(
        self, table_id: str, day: int, hour: int | None, bet: str, *, with_z: bool
    ) -> ReportRow:
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
            hour=hour,
        )


def report_rows(spots: list[SpotRound]) -> list[ReportRow]:
    """One row per table, day (and hour, in an hourly report) and bet, then the table's day
    (or hour) over all bets (``all``)."""
    by_bet: dict[tuple[str, int, int | None, str], _Sum] = defaultdict(_Sum)
    by_day: dict[tuple[str, int, int | None], _Sum] = defaultdict(_Sum)
    day_rounds: dict[tuple[str, int, int | None], set[int]] = defaultdict(set)
    for spot in spots:
        when = (spot.table_id, spot.day, spot.hour)
        day_rounds[when].add(spot.round_id)
        theory = bet_theory(parse_ruleset(spot.ruleset_toml)).get(spot.bet)
        by_bet[(*when, spot.bet)].add(spot, theory)
        by_day[when].add(spot, theory)
    rows = [
        total.row(table, day, hour, bet, with_z=True)
        for (table, day, hour, bet), total in by_bet.items()
    ]
    for (table, day, hour), total in by_day.items():
        total.rounds = len(day_rounds[(table, day, hour)])
        rows.append(total.row(table, day, hour, "all", with_z=False))
    return sorted(rows, key=lambda r: (r.table_id, r.day, r.hour or 0, r.bet == "all", r.bet))


def rows_csv(rows: Sequence[BaseModel], names: Sequence[str]) -> str:
    """``rows`` as CSV with a header of their fields ``names`` (an empty cell for a null)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        data = row.model_dump()
        writer.writerow(["" if data[name] is None else data[name] for name in names])
    return out.getvalue()


def report_csv(view: ReportView) -> str:
    """The report as CSV, one line per row, with a header."""
    return rows_csv(view.rows, list(ReportRow.model_fields))


class ReportDesk:
    """The reports of one server."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    def today(self) -> date:
        """The UTC day now, by the server's clock."""
        return datetime.fromtimestamp(self.clock.now_ms() / 1000, UTC).date()

    async def report(
        self,
        since: date,
        until: date,
        table_id: str | None,
        money: str,
        granularity: Literal["day", "hour"] = "day",
    ) -> ReportView:
        """Settlements from the start of ``since`` to the end of ``until`` (UTC days), by day
        or by hour."""
        start = _ms(since)
        end = _ms(until) + DAY_MS
        demo = _DEMO[money]
        hourly = granularity == "hour"
        spots = await self.service.runner.read(
            lambda c: spot_rounds(
                c, since_ms=start, until_ms=end, table_id=table_id, demo=demo, hourly=hourly
            )
        )
        return ReportView(
            since=since.isoformat(),
            until=until.isoformat(),
            money=money,
            granularity=granularity,
            rows=report_rows(spots),
        )

    async def _players(
        self, since: date, until: date, demo: bool | None, player_id: str | None
    ) -> list[PlayerReportRow]:
        start, end = _ms(since), _ms(until) + DAY_MS
        found = await self.service.runner.read(
            lambda c: player_figures(
                c, since_ms=start, until_ms=end, demo=demo, player_id=player_id
            )
        )
        return [
            PlayerReportRow(
                player_id=f.player_id,
                username=f.username,
                demo=f.demo,
                rounds=f.rounds,
                bets=f.bets,
                stakes=f.stakes,
                returns=f.returns,
                result=f.returns - f.stakes,
                last_seen=iso_utc(f.last_ms),
            )
            for f in found
        ]

    async def players(
        self, since: date, until: date, money: str, player_id: str | None
    ) -> PlayerReportView:
        """Per player (or the one player), their settled bets of the period, by result."""
        rows = await self._players(since, until, _DEMO[money], player_id)
        rows.sort(key=lambda r: (-r.result, r.player_id))
        return PlayerReportView(
            since=since.isoformat(), until=until.isoformat(), money=money, rows=rows
        )

    async def top(self, since: date, until: date, limit: int) -> TopPlayersView:
        """The players who won most and lost most of real money over the period."""
        rows = await self._players(since, until, False, None)
        winners = sorted((r for r in rows if r.result > 0), key=lambda r: (-r.result, r.player_id))
        losers = sorted((r for r in rows if r.result < 0), key=lambda r: (r.result, r.player_id))
        return TopPlayersView(
            since=since.isoformat(),
            until=until.isoformat(),
            winners=winners[:limit],
            losers=losers[:limit],
        )


_DEMO: dict[str, bool | None] = {"real": False, "demo": True, "all": None}


def player_report_csv(view: PlayerReportView) -> str:
    """The per-player report as CSV, one line per player, with a header."""
    return rows_csv(view.rows, list(PlayerReportRow.model_fields))


def _ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()) * 1000

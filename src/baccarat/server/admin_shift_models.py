"""The back office's shifts, table monitor and player reports: request and response models
(``docs/admin.md``). Money is integer minor units, instants ISO 8601 UTC."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from baccarat.server.models import PRINTABLE

__all__ = [
    "HandOver",
    "MoneyFigures",
    "MonitorRound",
    "MonitorShift",
    "MonitorView",
    "PlayerReportRow",
    "PlayerReportView",
    "ShiftList",
    "ShiftOpen",
    "ShiftTable",
    "ShiftView",
    "TopPlayersView",
]

#: What the outgoing shift manager leaves for the next (kept in the audit chain too).
Note = Annotated[str, Field(min_length=1, max_length=500, pattern=PRINTABLE)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ShiftOpen(_Model):
    note: Note | None = Field(None, description="Optional: kept in the audit chain.")


class HandOver(_Model):
    note: Note | None = Field(None, description="Optional: for the next shift manager.")


class MoneyFigures(_Model):
    bets: int = Field(description="Settled bets.")
    turnover: int = Field(description="Their stakes.")
    paid_out: int = Field(description="What they returned (stakes back and winnings).")
    hold: int = Field(description="The house's result: turnover − paid out.")
    hold_percent: float | None = Field(description="hold / turnover, in percent.")


class ShiftTable(_Model):
    table_id: str = Field(description="A table, or 'all' for the total.")
    rounds_dealt: int = Field(description="Rounds settled.")
    rounds_voided: int
    alerts: int = Field(description="Integrity alerts raised.")
    real: MoneyFigures
    demo: MoneyFigures = Field(description="Guests' demo money, apart from real money.")


class ShiftView(_Model):
    id: int
    status: Literal["open", "closed"]
    opened_at: str
    opened_by: str
    closed_at: str | None
    closed_by: str | None
    note: str | None
    final: bool = Field(description="True: the report stored at the hand-over; else so far.")
    tables: list[ShiftTable]
    total: ShiftTable


class ShiftList(_Model):
    current: ShiftView | None = Field(description="The open shift, with its figures so far.")
    shifts: list[ShiftView] = Field(description="The newest shifts first, with their reports.")


class MonitorRound(_Model):
    id: int
    shoe_number: int | None
    number: int
    phase: Literal["open", "closed", "dealt", "settled", "voided"]
    stakes: dict[str, int] = Field(description="Real money staked per spot (in play or settled).")
    demo_stakes: dict[str, int] = Field(description="Guests' demo money per spot.")
    result: MoneyFigures | None = Field(description="Real money, once the round is settled.")


class MonitorShift(_Model):
    id: int
    opened_at: str
    opened_by: str
    table: ShiftTable = Field(description="This table's figures since the shift opened.")


class MonitorView(_Model):
    """What the back office's monitor of a table adds to the public feed (which shows the
    round, its countdown and its cards as they are turned, as players see them)."""

    table_id: str
    round: MonitorRound | None = Field(description="The round the table shows now.")
    last_settled: MonitorRound | None = Field(description="The table's newest settled round.")
    shift: MonitorShift | None = Field(description="The open shift, if any.")


class PlayerReportRow(_Model):
    player_id: str
    username: str | None
    demo: bool
    rounds: int
    bets: int
    stakes: int
    returns: int
    result: int = Field(description="The player's result: returns − stakes.")
    last_seen: str = Field(description="The player's last settled bet in the period.")


class PlayerReportView(_Model):
    since: str
    until: str
    money: Literal["real", "demo", "all"]
    rows: list[PlayerReportRow]


class TopPlayersView(_Model):
    since: str
    until: str
    winners: list[PlayerReportRow] = Field(description="Real money, the largest result first.")
    losers: list[PlayerReportRow] = Field(description="Real money, the largest loss first.")

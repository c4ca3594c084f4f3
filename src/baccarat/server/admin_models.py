"""The admin API's request and response models (``/api/admin``, ``docs/admin.md``).

Like ``baccarat.server.models``: an unknown key in a request is refused, money is integer
minor units, instants are ISO 8601 text. Every request that changes something carries a
``reason`` (1 to 200 printable characters), written to the audit chain with who and when.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from baccarat.responsible import LimitKind, Period
from baccarat.server.models import DEVICE_PATTERN, PRINTABLE, RevealedCardModel
from baccarat.store.money import MONEY_LIMIT

__all__ = [
    "AdminBet",
    "AdminRound",
    "AdminRoundDetail",
    "AdminRoundPage",
    "AuditAnchorView",
    "AuditPage",
    "AuditRecordView",
    "AuditVerifyView",
    "CapRequest",
    "CapsView",
    "IntegrityView",
    "PlayerDetail",
    "PlayerList",
    "PlayerSummary",
    "ReasonBody",
    "ReportRow",
    "ReportView",
    "Role",
    "ShoeAdminView",
    "ShoeList",
    "StaffCreate",
    "StaffList",
    "StaffLoggedIn",
    "StaffLogin",
    "StaffMe",
    "StaffMemberView",
    "StakeLimits",
    "TableAudience",
    "TableChange",
    "TableControlView",
    "TableLimitsChange",
    "TableList",
    "VoidResult",
]

Role = Literal["operator", "auditor", "admin", "dealer"]
#: Why a member of staff acts: kept in the audit chain.
Reason = Annotated[str, Field(min_length=1, max_length=200, pattern=PRINTABLE)]
Name = Annotated[str, Field(min_length=1, max_length=64, pattern=PRINTABLE)]
Money = Annotated[StrictInt, Field(ge=1, le=MONEY_LIMIT)]


class _AdminModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReasonBody(_AdminModel):
    reason: Reason


# Staff and their sessions.


class StaffLogin(_AdminModel):
    username: str = Field(min_length=1, max_length=40, pattern=PRINTABLE)
    password: str = Field(min_length=1, max_length=1024)
    device: str | None = Field(
        None,
        pattern=DEVICE_PATTERN,
        description="The device token of an earlier login of this member on this device.",
    )


class StaffLoggedIn(_AdminModel):
    token: str = Field(description="A staff bearer token: it opens /api/admin routes only.")
    username: str
    role: Role
    expires_at: str
    device: str = Field(description="Keep it on this device and send it with the next login.")


class StaffMe(_AdminModel):
    username: str
    role: Role


class StaffCreate(_AdminModel):
    username: str = Field(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9._-]+$")
    role: Role
    password: str = Field(min_length=1, max_length=1024)
    reason: Reason


class StaffMemberView(_AdminModel):
    id: str
    username: str
    role: Role
    created_at: str
    disabled_at: str | None


class StaffList(_AdminModel):
    staff: list[StaffMemberView]


# Tables.


class StakeLimits(_AdminModel):
    min_stake: Money
    max_stake: Money


class TableChange(_AdminModel):
    """A change for the table's next shoe: only the fields given change."""

    reason: Reason
    ruleset: str | None = Field(
        default=None, max_length=40, pattern=r"^[a-z0-9-]+$", description="A built-in rule set."
    )
    limits: dict[Annotated[str, Field(max_length=32)], StakeLimits] | None = Field(
        default=None, max_length=32, description="Per bet, its minimum and maximum stake."
    )
    betting_ms: StrictInt | None = Field(default=None, ge=1_000, le=600_000)
    reveal_ms: StrictInt | None = Field(default=None, ge=0, le=60_000)
    result_ms: StrictInt | None = Field(default=None, ge=0, le=60_000)
    dealing: Literal["face-up", "face-down"] | None = None
    before_time: Literal["void", "burn"] | None = Field(
        default=None, description="A studio table: a card drawn while betting is open."
    )
    exposed: Literal["void", "dummy"] | None = Field(
        default=None, description="A studio table: a misdeal voids, or deals a dummy hand."
    )
    early_close: StrictBool | None = Field(
        default=None, description="A studio table: whether its dealer may close betting early."
    )


class TableLimitsChange(_AdminModel):
    """The table's limits from its next round: its minimum and maximum stake per spot (each
    bet's limits move with them as the rule set proportions them), and a lower maximum for
    some bets."""

    reason: Reason
    min_stake: Money
    max_stake: Money
    bets: dict[Annotated[str, Field(max_length=32)], Money] | None = Field(
        default=None, max_length=32, description="Per bet, its own maximum stake."
    )


class TableControlView(_AdminModel):
    id: str
    status: Literal["open", "paused", "closed"]
    phase: str | None = Field(description="The round in play's phase, if any.")
    round_id: int | None
    ruleset: str
    settings: dict[str, Any]
    pending: dict[str, Any] | None = Field(
        description="What applies from the next shoe: 'ruleset' and 'limits', 'settings'."
    )
    watching: int
    limits: dict[str, Any] | None = Field(
        default=None,
        description="The limits an operator set that the newest round opened under: "
        "min_stake, max_stake, bets (null: the rule set's own).",
    )
    pending_limits: dict[str, Any] | None = Field(
        default=None, description="The limits an operator set for the next round to open."
    )


class TableList(_AdminModel):
    tables: list[TableControlView]
    rulesets: list[str] = Field(description="The built-in rule sets a next shoe may take.")


class TableAudience(_AdminModel):
    table_id: str
    watching: int = Field(description="Feed connections to the table (every node).")
    round_id: int | None
    bettors: dict[str, dict[str, int]] = Field(
        description="Per player, their stakes in play on the round, per spot."
    )


class IntegrityView(_AdminModel):
    """The integrity monitor's view of a table (``docs/integrity.md``): this node's counts
    since it started dealing it, and the stored alerts, latest first."""

    table: str
    ruleset: str | None = None
    rounds: int
    shoe: str | None = None
    shoes: int | None = None
    frequencies: dict[str, list[dict[str, Any]]]
    players: list[dict[str, Any]]
    open_alerts: list[Any]
    alerts: list[dict[str, Any]]


# Rounds.


class AdminRound(_AdminModel):
    id: int = Field(description="The server-wide round id.")
    table_id: str
    shoe_id: str
    shoe_number: int = Field(description="The number of the round's shoe at its table.")
    number: int = Field(description="The round's number in its shoe.")
    phase: Literal["open", "closed", "dealt", "settled", "voided"]
    opened_at: str
    finished_at: str | None
    cards: list[RevealedCardModel] = Field(description="Only the cards revealed so far.")
    winner: Literal["player", "banker", "tie"] | None
    void_reason: str | None


class AdminRoundPage(_AdminModel):
    rounds: list[AdminRound]
    next_before: int | None = Field(description="Pass as before_id for the next page.")


class AdminBet(_AdminModel):
    id: int
    player_id: str
    spot: str
    stake: int
    placed_at: str
    outcome: Literal["settled", "voided", "undone"] | None
    event: str | None
    result: str | None
    returned: int | None


class AdminRoundDetail(_AdminModel):
    round: AdminRound
    bets: list[AdminBet]


class VoidResult(_AdminModel):
    round: AdminRound
    returned: dict[str, int] = Field(description="What each player got back, minor units.")


# Players.


class PlayerSummary(_AdminModel):
    id: str
    username: str | None
    demo: bool
    balance: int
    created_at: str
    last_login_at: str | None
    status: Literal["active", "locked", "closed"]


class PlayerList(_AdminModel):
    players: list[PlayerSummary]


class CapModel(_AdminModel):
    kind: LimitKind
    period: Period
    amount: int


class PlayerDetail(_AdminModel):
    player: PlayerSummary
    status_reason: str | None
    limits: list[dict[str, Any]] = Field(description="The player's own limits in force.")
    pending: list[dict[str, Any]] = Field(description="The player's pending increases.")
    caps: list[CapModel] = Field(description="The operator's limits.")
    breaks: dict[str, Any]
    session: dict[str, Any] | None


class CapRequest(_AdminModel):
    reason: Reason
    kind: LimitKind
    period: Period
    amount: StrictInt | None = Field(
        ge=0, le=MONEY_LIMIT, description="The most the player's limit may be; null removes it."
    )


class CapsView(_AdminModel):
    player_id: str
    caps: list[CapModel]
    limits: list[dict[str, Any]]


# Shoes.


class ShoeAdminView(_AdminModel):
    id: str
    table_id: str
    number: int
    status: Literal["open", "ended"]
    decks: int
    commitment: str
    client_seed: str | None
    digest: str | None
    started_at: str
    ended_at: str | None
    verification: Literal["in_play", "verified", "failed"]
    failures: list[str] = Field(description="What baccarat.verify found wrong, if anything.")


class ShoeList(_AdminModel):
    shoes: list[ShoeAdminView]


# The audit log.


class AuditRecordView(_AdminModel):
    seq: int
    time: str
    actor: str
    action: str
    details: dict[str, Any]
    prev_hash: str
    hash: str


class AuditPage(_AdminModel):
    records: list[AuditRecordView]
    next_after: int | None = Field(description="Pass as after_seq for the next page.")
    next_before: int | None = Field(
        default=None, description="order=desc: pass as before_seq for the next (older) page."
    )


class AuditProblem(_AdminModel):
    seq: int
    kind: str
    message: str


class AuditVerifyView(_AdminModel):
    ok: bool
    records: int
    problems: list[AuditProblem]


class AuditAnchorView(_AdminModel):
    seq: int
    head: str
    at: int
    line: str = Field(description="The anchor line, as 'baccarat serve --audit-anchor' writes it.")


# Reports.


class ReportRow(_AdminModel):
    table_id: str
    day: str = Field(description="UTC day of the settlements, YYYY-MM-DD.")
    bet: str = Field(description="A bet, or 'all' for the table's day.")
    rounds: int = Field(description="Rounds with a settled stake on the bet.")
    turnover: int
    ggr: int = Field(description="Gross gaming revenue: stakes minus returns.")
    hold_percent: float | None
    theoretical_hold: int = Field(description="House edge × turnover, to the minor unit.")
    edge_percent: float | None = Field(description="The bet's exact house edge (full shoe).")
    z: float | None = Field(
        description="(ggr − theoretical) / its standard deviation; null where not exact."
    )
    hour: int | None = Field(None, description="UTC hour of the day (0-23), granularity=hour.")


class ReportView(_AdminModel):
    since: str
    until: str
    money: Literal["real", "demo", "all"]
    granularity: Literal["day", "hour"] = "day"
    rows: list[ReportRow]

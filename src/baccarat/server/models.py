"""The API's request and response models (the OpenAPI contract at ``/docs``): every route
answers one of these, so the document at ``/openapi.json`` types every body.

Money is an integer of minor units everywhere; a float or a string where a stake belongs
is refused, not rounded. Instants are ISO-8601 text here, at the edge, and integer epoch
milliseconds everywhere inside. A key that a body leaves out in some states (the running
session's figures, a limit change's ``confirmable_at``) is a field with a default that its
route leaves unset (``response_model_exclude_unset``): absent, not ``null``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictInt

from baccarat.responsible import BreakKind, LimitKind, Period
from baccarat.store.money import MONEY_LIMIT

__all__ = [
    "KEY_PATTERN",
    "MAX_ID",
    "MAX_INT",
    "PRINTABLE",
    "SEAT_DEVICE_PATTERN",
    "AllowedBreaks",
    "Amount",
    "Balance",
    "BetRequest",
    "BetResponse",
    "BreakModel",
    "BreakRange",
    "BreakRequest",
    "BreakTaken",
    "BreaksView",
    "ClientConfig",
    "Credentials",
    "ErrorBody",
    "ErrorDetail",
    "GuestRequest",
    "Health",
    "HistoryPage",
    "HistoryRound",
    "HistorySpot",
    "LimitChange",
    "LimitChanged",
    "LimitModel",
    "LimitRequest",
    "LimitUse",
    "LimitsView",
    "LoggedIn",
    "Me",
    "PendingIncrease",
    "PlayerCreated",
    "RealityCheckModel",
    "RefusalDetails",
    "Registered",
    "RevealedCardModel",
    "RoundBet",
    "RoundId",
    "RoundState",
    "RoundView",
    "RulesPage",
    "SeatDeviceRequest",
    "SeatStatus",
    "SeedRequest",
    "SeedResponse",
    "SessionModel",
    "SessionSettingsBody",
    "SessionSettingsModel",
    "SessionView",
    "ShoePseudonym",
    "ShoeState",
    "ShoeView",
    "Stake",
    "TableView",
    "Ticket",
]

#: The largest amount a request may carry: 2**53, exact as a JSON number in every language.
MAX_INT = 2**53
#: The largest id of the database's 32-bit id columns (``rounds.id``, ``bets.id``): an id
#: past it is refused at the edge, never sent to a query (PostgreSQL would fail on it).
MAX_ID = 2**31 - 1
#: Text without control characters (C0, DEL, C1): NUL and friends never reach a query.
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
#: An Idempotency-Key: visible ASCII only, as HTTP headers carry it unchanged everywhere.
KEY_PATTERN = r"^[\x21-\x7e]+$"
#: The longest Idempotency-Key, and the longest table id in a path.
KEY_CHARS, TABLE_ID_CHARS = 200, 64

#: A round id, in the range of its column.
RoundId = Annotated[int, Field(ge=1, le=MAX_ID, strict=True)]
#: A stake in minor units: an integer, never past ``MONEY_LIMIT`` (the table's limits are
#: checked after, with their own refusal codes).
Stake = Annotated[StrictInt, Field(le=MONEY_LIMIT)]


class _Model(BaseModel):
    """Every model of the API: an unknown key in a request is refused, not ignored."""

    model_config = ConfigDict(extra="forbid")


class RefusalDetails(_Model):
    """The values of a refusal, only those it has (money in minor units)."""

    until: str | None = Field(
        default=None, description="When the refusal stops applying (ISO 8601 UTC)."
    )
    kind: str | None = Field(
        default=None, description="limit_exceeded: the binding limit's kind (deposit, loss, wager)."
    )
    period: str | None = Field(
        default=None, description="limit_exceeded: the binding limit's period (24h, 7d, 30d)."
    )
    limit: int | None = Field(
        default=None,
        description=(
            "limit_exceeded: the limit's amount; below_minimum / above_maximum: the spot's "
            "minimum / maximum; deposit_too_large: the largest deposit; balance_limit: the "
            "largest balance. Minor units."
        ),
    )
    left: int | None = Field(
        default=None,
        description="limit_exceeded: what is left of the limit; balance_limit: the room left.",
    )
    spot: str | None = Field(
        default=None, description="below_minimum / above_maximum: the spot whose bound is broken."
    )


class ErrorDetail(_Model):
    code: str = Field(description="A stable, machine-readable reason.")
    message: str = Field(description="What went wrong, for people.")
    details: RefusalDetails | None = Field(
        default=None, description="The refusal's values, when it has any; absent otherwise."
    )


class ErrorBody(_Model):
    error: ErrorDetail


#: What a seat device token looks like (``baccarat.server.devices.issue_seat``).
SEAT_DEVICE_PATTERN = r"^[0-9a-f]{32}\.[0-9a-f]{32}$"
SEAT_DEVICE = (
    "Keep it on this device, apart from the token (it outlives the session): send it when "
    "asking for a new guest, and to learn why a token stopped working."
)


class GuestRequest(_Model):
    seat_device: str | None = Field(
        None,
        pattern=SEAT_DEVICE_PATTERN,
        description="The seat device token this device kept, if any: a device whose last "
        "seat an operator locked gets no new guest (403 device_locked).",
    )


class SeatDeviceRequest(_Model):
    seat_device: str = Field(pattern=SEAT_DEVICE_PATTERN)


class SeatStatus(_Model):
    status: Literal["active", "locked", "closed"] = Field(
        description="The account of the device's last seat: locked or closed by an operator "
        "(its sessions ended then), or active."
    )


class PlayerCreated(_Model):
    id: str
    token: str = Field(description="Bearer token; shown only once.")
    balance: int = Field(description="Minor units.")
    demo: bool = Field(description="Always true: a guest's balance is demo money.")
    seat_device: str = Field(description=SEAT_DEVICE)


class Me(_Model):
    id: str
    balance: int
    demo: bool = Field(
        description="A guest: the balance is demo money, never deposited to nor withdrawn."
    )
    operator: str | None = Field(
        default=None,
        description="An operator's player (a launch): the operator's name; the balance is "
        "the one at the operator's wallet. Absent for a player of this server.",
    )


class BetRequest(_Model):
    round_id: RoundId
    bets: dict[str, Stake] = Field(
        description="Stake per bet name in minor units, e.g. {'player': 1000, 'tie': 100}.",
        max_length=32,
    )


class RepeatRequest(_Model):
    """A rebet or double: repeat the player's previous round (twice over for double)."""

    round_id: RoundId


class BetResponse(_Model):
    round_id: int
    action: Literal["place", "rebet", "double", "undo"]
    accepted: dict[str, int] = Field(description="What this request added, per bet.")
    bets: dict[str, int] = Field(description="The player's stakes on this round now, per bet.")
    balance: int
    returned: int = Field(description="Stakes given back (undo).")


class RevealedCardModel(_Model):
    hand: Literal["player", "banker"]
    position: int
    index: int
    card: str


class RoundState(_Model):
    id: int
    number: int
    shoe_id: str
    phase: Literal["open", "closed", "dealt", "settled", "voided"]
    opened_at: str
    closes_at: str
    closes_at_ms: int


class SqueezeState(_Model):
    """The card being squeezed at a face-down table (never the card itself)."""

    round_id: int
    hand: Literal["player", "banker"]
    position: int
    squeezer: str | None = Field(description="The squeezer's pseudonym; null: the dealer.")
    deadline_ms: int | None = Field(description="When it turns itself at the latest, epoch ms.")
    edge: str | None = Field(description="Where the squeezer last peeled it from, if at all.")
    progress: float = Field(ge=0.0, le=1.0, description="How far, 0 (flat) to 1.")


class LastRound(_Model):
    id: int = Field(description="The server-wide round id.")
    shoe_number: int | None = Field(
        None,
        description="The number of the round's shoe at its table (null only for a shoe the "
        "table has not shown): with `number`, how players name the round.",
    )
    number: int = Field(description="The round's number in its shoe.")
    phase: Literal["settled", "voided"]
    void_reason: str | None


class ShoeState(_Model):
    id: str
    number: int
    kind: Literal["fair", "studio"] = Field(
        "fair", description="fair: the server's seeded shoe; studio: a physical shoe, as read."
    )
    algorithm: str
    decks: int
    commitment: str = Field(description="A fair shoe's commitment ('' for a studio shoe).")
    client_seed: str | None
    cards_left: int
    certificate: dict[str, Any] | None = Field(
        None, description="A studio shoe's shuffle certificate."
    )


class BetOffer(_Model):
    label: str
    description: str
    min_stake: int
    max_stake: int
    pays: dict[str, str] = Field(description="Event to payout, e.g. {'win': '19:20'}.")


class TableView(_Model):
    id: str
    ruleset: dict[str, str | int] = Field(
        description="name, title, description; currency (ISO 4217) and minor_unit (its exponent)."
    )
    settings: dict[str, Any]
    limits: dict[str, int] = Field(description="The smallest minimum and largest maximum stake.")
    bets: dict[str, BetOffer]
    pays: dict[str, dict[str, str]]
    chips: list[int]
    round: RoundState | None
    cards: list[RevealedCardModel]
    result: dict[str, Any] | None
    last_round: LastRound | None = Field(
        description="The table's newest finished round (settled, or voided and why)."
    )
    roads: dict[str, Any]
    shoe: ShoeState | None
    previous_shoe: dict[str, Any] | None = Field(
        description="The last ended shoe, with its revealed server seed."
    )
    watching: int
    stakes: dict[str, int] = Field(
        default_factory=dict,
        description=(
            "Every player's stakes on the table's current round, summed per spot (minor units; "
            "a spot nobody staked on is absent); live while the round is open."
        ),
    )
    studio: dict[str, Any] | None = Field(
        None,
        description="A studio table's desk: what it waits for (next), halted, misscan "
        "(a card typed by hand waits for its supervisor), burn_due, cut_card_out, last_coup.",
    )
    squeeze: SqueezeState | None = Field(
        None, description="Face down: the card being squeezed now, if any."
    )
    seq: int
    now: int = Field(description="The server's clock, epoch milliseconds.")


class RoundBet(_Model):
    id: int
    spot: str
    stake: int
    outcome: Literal["settled", "voided", "undone"] | None
    event: str | None
    result: str | None
    returned: int | None


class RoundView(_Model):
    id: int
    table_id: str
    shoe_id: str
    number: int
    phase: Literal["open", "closed", "dealt", "settled", "voided"]
    closes_at: str
    cards: list[RevealedCardModel]
    winner: Literal["player", "banker", "tie"] | None
    player_total: int | None
    banker_total: int | None
    void_reason: str | None
    bets: list[RoundBet] = Field(description="The caller's bets (empty without a token).")


class ShoeView(_Model):
    id: str
    table_id: str
    number: int
    kind: Literal["fair", "studio"] = Field(
        "fair", description="fair: the server's seeded shoe; studio: a physical shoe, as read."
    )
    algorithm: str = "studio"
    decks: int
    commitment: str | None = Field(None, description="A fair shoe's commitment.")
    client_seed: str | None = None
    status: Literal["open", "ended"]
    server_seed: str | None = None
    digest: str | None = None
    certificate: dict[str, Any] | None = Field(
        None, description="A studio shoe's shuffle certificate."
    )
    record: dict[str, Any] | None = Field(
        default=None,
        description="The shoe record (docs/shoe-record.md; a studio shoe's, docs/studio.md), "
        "once the shoe ended.",
    )


class SeedRequest(_Model):
    seed: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.~-]+$")


class SeedResponse(_Model):
    shoe_id: str
    seed: str


class Health(_Model):
    status: Literal["ok"]
    database: str
    tables: list[str]
    cluster: bool = Field(description="Whether this is one node of several.")
    node: str | None = Field(description="This node's name (a cluster's node).")
    dealing: list[str] = Field(description="The tables this node deals now.")


class ClientConfig(_Model):
    """What the page needs to know of the server's configuration."""

    guests: bool = Field(description="Whether visitors may play as guests (demo money).")
    demo_credit: int = Field(description="A new guest's demo credit, in minor units.")
    currency: str = Field(description="The money every table and balance counts in (ISO 4217).")
    minor_unit: int = Field(description="The currency's minor-unit exponent (2: hundredths).")
    rules: str = Field(
        description="The rule set of the server's first table: what the page's Rules link opens."
    )
    language: Literal["en", "id"] | None = Field(
        None,
        description="The house's language for visitors who have not chosen one ('id' on an "
        "Indonesian house); null: the browser's language decides.",
    )


class Ticket(_Model):
    ticket: str = Field(description="Connect to /ws/tables/{id}?ticket=...; works once.")
    expires_at: str = Field(description="UTC; the ticket is refused from then on.")


class ShoePseudonym(_Model):
    shoe_id: str
    pseudonym: str = Field(description="The `player` of your wagers in this shoe's record.")


# Accounts and the cashier.


#: What a device token looks like (``baccarat.server.devices``).
DEVICE_PATTERN = r"^[A-Za-z0-9_-]{16}\.[0-9a-f]{32}$"


class Credentials(_Model):
    username: str = Field(min_length=1, max_length=64, pattern=PRINTABLE)
    password: str = Field(min_length=1, max_length=1000)


class LoginCredentials(Credentials):
    device: str | None = Field(
        None,
        pattern=DEVICE_PATTERN,
        description="The device token of an earlier login of this username on this device: "
        "guesses from elsewhere then cannot lock it out.",
    )


class Registered(_Model):
    id: str
    username: str
    balance: int = Field(description="Minor units; deposit through POST /api/me/deposits.")


class SessionSettingsModel(_Model):
    time_limit_s: int | None = Field(description="The session time limit in seconds, or null.")
    reality_check_every_s: int | None = Field(
        description="The reality-check interval in seconds, or null."
    )


class SessionModel(_Model):
    """A running responsible-gaming session (instants in UTC)."""

    started_at: str
    acknowledged_at: str | None = Field(description="The last reality check acknowledged.")
    time_limit_s: int | None
    reality_check_every_s: int | None
    ends_at: str | None = Field(description="When the time limit ends the session, if set.")
    reality_check_due_at: str | None


class LoggedIn(_Model):
    token: str = Field(description="Bearer token of this session; shown only once.")
    player_id: str
    username: str
    expires_at: str = Field(description="UTC; the token is refused from then on.")
    previous_login_at: str | None = Field(description="UTC; null at the first login.")
    failed_logins: int = Field(
        description="Wrong passwords for this username since its previous login."
    )
    device: str = Field(description="Keep it on this device and send it with the next login.")
    seat_device: str = Field(description=SEAT_DEVICE)
    balance: int
    session: SessionModel = Field(description="The responsible-gaming session just started.")


class Amount(_Model):
    amount: StrictInt = Field(ge=1, le=MONEY_LIMIT, description="Minor units.")


class Balance(_Model):
    amount: int
    balance: int


# Responsible gaming: the session, limits and breaks.

_DAY_S = 24 * 3600


class SessionSettingsBody(_Model):
    time_limit_s: StrictInt | None = Field(
        ge=300, le=_DAY_S, description="Session time limit in seconds (5 min to 24 h), or null."
    )
    reality_check_every_s: StrictInt | None = Field(
        ge=300, le=_DAY_S, description="Reality-check interval in seconds (5 min to 24 h), or null."
    )


class RealityCheckModel(_Model):
    type: Literal["reality_check"]
    at: str
    started_at: str
    time_played_s: int
    net_result: int
    wagered: int
    message: str


class SessionView(_Model):
    """The session as a client shows it. Without a running session, the running session's
    figures (``session_ends_at`` to ``may_end``) are absent."""

    settings: SessionSettingsModel
    session: SessionModel | None
    session_ends_at: str | None = None
    time_played_s: int | None = None
    net_result: int | None = None
    limit_reached: bool | None = None
    may_end: bool | None = None
    reality_check_due: bool
    reality_check: RealityCheckModel | None


class LimitRequest(_Model):
    kind: LimitKind
    period: Period
    amount: StrictInt | None = Field(
        ge=1, le=MAX_INT, description="Minor units; null removes the limit (after 24 h)."
    )


class LimitModel(_Model):
    kind: LimitKind
    period: Period
    amount: int


class PendingIncrease(_Model):
    kind: LimitKind
    period: Period
    amount: int | None = Field(description="The limit asked for; null removes it.")
    requested_at: str
    confirmable_at: str


class LimitUse(_Model):
    kind: LimitKind
    period: Period
    limit: int
    used: int = Field(description="What the window holds (a net loss may be negative).")
    left: int


class LimitsView(_Model):
    limits: list[LimitModel]
    pending: list[PendingIncrease]
    usage: list[LimitUse]


class LimitChange(_Model):
    """One change to one limit; ``confirmable_at`` only for a pending increase."""

    kind: LimitKind
    period: Period
    before: int | None
    after: int | None
    status: Literal["applied", "pending", "confirmed", "cancelled"]
    at: str
    confirmable_at: str | None = None
    message: str


class LimitChanged(_Model):
    change: LimitChange
    limits: list[LimitModel]
    pending: list[PendingIncrease]
    usage: list[LimitUse]


class BreakRequest(_Model):
    kind: BreakKind
    until: AwareDatetime = Field(description="When the break ends (with a UTC offset).")


class BreakModel(_Model):
    kind: BreakKind
    started_at: str
    until: str


class BreakRange(_Model):
    earliest: str
    latest: str


class AllowedBreaks(_Model):
    time_out: BreakRange
    self_exclusion: BreakRange


class BreaksView(_Model):
    time_out: BreakModel | None = Field(description="The latest time-out taken.")
    self_exclusion: BreakModel | None = Field(description="The latest self-exclusion taken.")
    in_force: BreakModel | None
    allowed: AllowedBreaks = Field(description="The ends a new break may have, from now.")


class BreakTaken(BreaksView):
    sessions_ended: int


# Game recall and the rules page.


class HistorySpot(_Model):
    bet: str
    stake: int
    outcome: Literal["settled", "voided", "undone"] | None
    event: str | None
    result: str | None
    returned: int | None


class HistoryRound(_Model):
    round_id: int = Field(description="The server-wide round id.")
    table_id: str
    shoe_number: int = Field(description="The number of the round's shoe at its table.")
    number: int = Field(description="The round's number in its shoe.")
    time_ms: int
    phase: str
    void_reason: str | None
    cards: list[str] | None
    result: dict[str, Any] | None
    bets: list[HistorySpot]
    staked: int
    returned: int
    net: int
    balance_before: int
    balance_after: int
    time: str = Field(description="UTC.")


class HistoryPage(_Model):
    page: int
    per_page: int
    total: int
    pages: int
    rounds: list[HistoryRound]


class RulesPage(_Model):
    """The rules page of a rule set (``baccarat.rulespage``)."""

    ruleset: dict[str, str | int]
    shoe: dict[str, Any]
    chips: list[int]
    drawing: dict[str, Any]
    bets: list[dict[str, Any]]
    house_edges: Literal["exact", "pending"]
    house_edge_basis: str
    rounding: str
    interruption: str
    fairness: dict[str, str]

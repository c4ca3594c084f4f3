"""The API's request and response models (the OpenAPI contract at ``/docs``).

Money is an integer of minor units everywhere; a float or a string where a stake belongs
is refused, not rounded.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from baccarat.store.money import MONEY_LIMIT

__all__ = [
    "KEY_PATTERN",
    "MAX_ID",
    "PRINTABLE",
    "BetRequest",
    "BetResponse",
    "ErrorBody",
    "ErrorDetail",
    "Health",
    "Me",
    "PlayerCreated",
    "PrintableName",
    "RevealedCardModel",
    "RoundBet",
    "RoundId",
    "RoundState",
    "RoundView",
    "SeedRequest",
    "SeedResponse",
    "ShoeState",
    "ShoeView",
    "Stake",
    "TableView",
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

#: A round id, in the range of its column.
RoundId = Annotated[int, Field(ge=1, le=MAX_ID, strict=True)]
#: A stake in minor units: an integer, never past ``MONEY_LIMIT`` (the table's limits are
#: checked after, with their own refusal codes).
Stake = Annotated[StrictInt, Field(le=MONEY_LIMIT)]
#: A name or an id from a request: printable, bounded.
PrintableName = Annotated[str, Field(min_length=1, max_length=64, pattern=PRINTABLE)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(_Model):
    code: str = Field(description="A stable, machine-readable reason.")
    message: str = Field(description="What went wrong, for people.")


class ErrorBody(_Model):
    error: ErrorDetail


class PlayerCreated(_Model):
    id: str
    token: str = Field(description="Bearer token; shown only once.")
    balance: int = Field(description="Minor units.")
    demo: bool = Field(description="Always true: a guest's balance is demo money.")


class Me(_Model):
    id: str
    balance: int
    demo: bool = Field(
        description="A guest: the balance is demo money, never deposited to nor withdrawn."
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


class LastRound(_Model):
    id: int
    number: int
    phase: Literal["settled", "voided"]
    void_reason: str | None


class ShoeState(_Model):
    id: str
    number: int
    algorithm: str
    decks: int
    commitment: str
    client_seed: str | None
    cards_left: int


class BetOffer(_Model):
    label: str
    description: str
    min_stake: int
    max_stake: int
    pays: dict[str, str] = Field(description="Event to payout, e.g. {'win': '19:20'}.")


class TableView(_Model):
    id: str
    ruleset: dict[str, str]
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
    algorithm: str
    decks: int
    commitment: str
    client_seed: str | None
    status: Literal["open", "ended"]
    server_seed: str | None = None
    digest: str | None = None
    record: dict[str, Any] | None = Field(
        default=None, description="The shoe record (docs/shoe-record.md), once the shoe ended."
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

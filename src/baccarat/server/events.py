"""Every message the table feed (``/ws/tables/{id}``) sends, as pydantic models.

A client first gets a ``snapshot``; then the table's events, each stamped with the table's next
``seq``, its ``table_id`` and the server's ``now`` (epoch ms). The round's events are made
from the records the round's state machine returned (``baccarat.table.events``); the shoe's
from the stored shoe. ``settled`` and ``round_void`` have a player's own part (their results,
what came back), sent only in that player's copy; a field of it is absent, never ``null``, in
everyone else's; so does the squeezer's ``yours`` of a ``squeeze``. ``reality_check`` and
``refused`` (a squeezer's peel or turn refused) are private and outside the sequence (no
``seq``), and so is ``balance`` (an operator's player's wallet balance after a credit landed).

Messages are serialized from these models only (``text``), and the JSON Schema published in
``docs/events.schema.json`` is ``schema_text()``, generated from them::

    python -c "from baccarat.server.events import schema_text; print(schema_text(), end='')" \
        > docs/events.schema.json

>>> from baccarat.table import RoundVoided
>>> stamp = Stamp(seq=8, table_id="standard", now=1_718_000_000_000)
>>> RoundVoidEvent.of(stamp, RoundVoided(3, "shuffle error", 0), 1, 2).text()
'{"type":"round_void","seq":8,"table_id":"standard","now":1718000000000,"round_id":3,"shoe_number":2,"number":1,"reason":"shuffle error"}'
>>> MESSAGES.validate_json('{"type": "watching", "seq": 9, "table_id": "t", "now": 1, "count": 2}')
WatchingEvent(type='watching', seq=9, table_id='t', now=1, count=2)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, TypedDict

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)
from pydantic.json_schema import SkipJsonSchema

from baccarat.coup import Coup
from baccarat.responsible import RealityCheck
from baccarat.rulesets import RuleSet
from baccarat.server.clock import iso_utc
from baccarat.server.models import TableView
from baccarat.store.rounds import RoundRow
from baccarat.store.shoes import ShoeRow
from baccarat.table import (
    BetsClosed,
    CardSqueezed,
    CardTurned,
    ResultShown,
    RoundOpened,
    RoundSettled,
    RoundVoided,
)

__all__ = [
    "MESSAGES",
    "AnyMessage",
    "BalanceMessage",
    "BetsClosedEvent",
    "CardEvent",
    "CoupResult",
    "Message",
    "PeelEvent",
    "PublicShoe",
    "RealityCheckEvent",
    "RefusedMessage",
    "RoundOpenEvent",
    "RoundResultEvent",
    "RoundVoidEvent",
    "SettledEvent",
    "ShoeEndEvent",
    "ShoeStartEvent",
    "SnapshotMessage",
    "SqueezeEvent",
    "StakesEvent",
    "Stamp",
    "TableEvent",
    "WagerResult",
    "WatchingEvent",
    "events_schema",
    "schema_text",
]

Hand = Literal["player", "banker"]
#: Where a squeezer takes the card (``baccarat.table.squeeze.EDGES``).
Edge = Literal[
    "top-left", "top", "top-right", "right", "bottom-right", "bottom", "bottom-left", "left"
]
Winner = Literal["player", "banker", "tie"]


def _type_is_required(schema: dict[str, Any]) -> None:
    """Every message names its ``type`` (a default in the model, never absent on the wire)."""
    required = schema.setdefault("required", [])
    if "type" in schema.get("properties", {}) and "type" not in required:
        required.insert(0, "type")


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def _own(description: str) -> Any:
    """A field sent only when it has a value: absent, never ``null``, when it has none."""
    return Field(default=None, description=description, json_schema_extra=_no_default)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_type_is_required)


class _OmitsAbsent(_Model):
    """A model with fields that are left out, not sent as ``null``, when they have no value."""

    ABSENT: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in self.ABSENT:
            if data.get(name) is None:
                data.pop(name, None)
        return data


class Message(_Model):
    """Anything the feed sends; ``text`` is its JSON, made once however many get it."""

    type: str

    def text(self) -> str:
        return self.model_dump_json()


class Stamp(TypedDict):
    """The place of an event in its table's sequence."""

    seq: int
    table_id: str
    now: int


class TableEvent(Message):
    """An event of the table's public sequence."""

    seq: int = Field(description="The table's sequence number: a gap means a missed event.")
    table_id: str
    now: int = Field(description="The server's clock when it was sent, epoch ms.")


class PublicShoe(_OmitsAbsent):
    """A shoe as anyone may see it: the server seed and digest only once it has ended."""

    ABSENT: ClassVar[tuple[str, ...]] = (
        "server_seed",
        "digest",
        "commitment",
        "client_seed",
        "algorithm",
        "certificate",
    )

    id: str
    table_id: str
    number: int
    kind: Literal["fair", "studio"] = "fair"
    algorithm: str | SkipJsonSchema[None] = _own("A fair shoe's algorithm.")
    decks: int
    commitment: str | SkipJsonSchema[None] = _own("A fair shoe's commitment.")
    client_seed: str | None = None
    status: Literal["open", "ended"]
    server_seed: str | SkipJsonSchema[None] = _own("Hex; only once the shoe has ended.")
    digest: str | SkipJsonSchema[None] = _own("Only once the shoe has ended.")
    certificate: dict[str, Any] | SkipJsonSchema[None] = _own(
        "A studio shoe's shuffle certificate: who shuffled, when, the decks, the cut card."
    )

    @classmethod
    def of(cls, row: ShoeRow) -> PublicShoe:
        return cls.model_validate(row.public())


class SnapshotMessage(Message):
    """The first message of every connection: the table as ``GET /api/tables/{id}`` shows it."""

    type: Literal["snapshot"] = "snapshot"
    seq: int = Field(description="The last event sent before this snapshot.")
    table: TableView


class ShoeStartEvent(TableEvent):
    type: Literal["shoe_start"] = "shoe_start"
    shoe: PublicShoe

    @classmethod
    def of(cls, stamp: Stamp, row: ShoeRow) -> ShoeStartEvent:
        return cls(**stamp, shoe=PublicShoe.of(row))


class StudioEvent(TableEvent, _OmitsAbsent):
    """A studio table's desk changed: what it waits for and, when something happened, a
    notice for the players (``halted``, ``resumed``, ``misscan``, ``misscan_confirmed``,
    ``card_burned``, ``before_time_void``, ``shoe_change``, ``shoe_change_next``,
    ``dealer_change``, ``dummy_hand``, ``dummy_done``)."""

    ABSENT: ClassVar[tuple[str, ...]] = ("notice", "detail")

    type: Literal["studio"] = "studio"
    studio: dict[str, Any]
    notice: str | SkipJsonSchema[None] = _own("What happened, for a notice.")
    detail: str | SkipJsonSchema[None] = _own(
        "Who shuffled a new shoe, or the dealer who took the table; never a card."
    )


class ShoeEndEvent(TableEvent):
    type: Literal["shoe_end"] = "shoe_end"
    shoe_id: str
    server_seed: str = Field(description="Hex: check it against the shoe's commitment.")
    digest: str | None
    shoe: PublicShoe

    @classmethod
    def of(cls, stamp: Stamp, row: ShoeRow, server_seed: bytes) -> ShoeEndEvent:
        shoe = PublicShoe.of(row)
        return cls(
            **stamp, shoe_id=row.id, server_seed=server_seed.hex(), digest=row.digest, shoe=shoe
        )


class StakeRange(_Model):
    min_stake: int
    max_stake: int


class RoundLimits(_Model):
    """The stake limits a round is played under (an operator's change applies from a round's
    opening), in minor units."""

    min: int = Field(description="The smallest minimum stake of the round's bets.")
    max: int = Field(description="The largest maximum stake of the round's bets.")
    bets: dict[str, StakeRange]

    @classmethod
    def of(cls, ruleset: RuleSet) -> RoundLimits:
        rules = ruleset.bets
        return cls(
            min=min(rule.min_stake for rule in rules.values()),
            max=max(rule.max_stake for rule in rules.values()),
            bets={
                name: StakeRange(min_stake=rule.min_stake, max_stake=rule.max_stake)
                for name, rule in rules.items()
            },
        )


class RoundOpenEvent(TableEvent):
    type: Literal["round_open"] = "round_open"
    round_id: int
    number: int = Field(description="The round's number in its shoe.")
    shoe_id: str
    opened_at: str = Field(description="ISO-8601 UTC.")
    closes_at: str = Field(description="ISO-8601 UTC: bets are taken until just before.")
    closes_at_ms: int
    limits: RoundLimits | None = Field(
        None, description="The stake limits of this round (they may change between rounds)."
    )

    @classmethod
    def of(
        cls, stamp: Stamp, event: RoundOpened, row: RoundRow, ruleset: RuleSet | None = None
    ) -> RoundOpenEvent:
        return cls(
            **stamp,
            round_id=event.round_id,
            number=row.number,
            shoe_id=row.shoe_id,
            opened_at=iso_utc(event.opened_at),
            closes_at=iso_utc(event.closes_at),
            closes_at_ms=event.closes_at,
            limits=None if ruleset is None else RoundLimits.of(ruleset),
        )


class StakesEvent(TableEvent):
    """Every player's stakes on the open round, summed per spot (minor units; a spot nobody
    staked on is absent). Sent when they change, at most about every 0.5 s."""

    type: Literal["stakes"] = "stakes"
    round_id: int
    stakes: dict[str, int] = Field(description="Spot -> the sum of all players' stakes on it.")


class BetsClosedEvent(TableEvent):
    type: Literal["bets_closed"] = "bets_closed"
    round_id: int
    stakes: dict[str, int] = Field(
        description="The round's final stakes of all players, summed per spot (minor units)."
    )

    @classmethod
    def of(cls, stamp: Stamp, event: BetsClosed, stakes: Mapping[str, int]) -> BetsClosedEvent:
        return cls(**stamp, round_id=event.round_id, stakes=dict(stakes))


class SqueezeEvent(TableEvent, _OmitsAbsent):
    """Face down: the card at this place is squeezed, then turned (never the card itself).
    The squeezer's own copy says it is theirs (``yours``)."""

    ABSENT: ClassVar[tuple[str, ...]] = ("yours",)

    type: Literal["squeeze"] = "squeeze"
    round_id: int
    hand: Hand
    position: int
    squeezer: str | None = Field(
        None,
        description="The squeezer's public pseudonym in this shoe (the largest stake on the "
        "hand); null: the dealer squeezes.",
    )
    deadline_ms: int | None = Field(
        None, description="When the card turns itself at the latest, epoch ms."
    )
    yours: bool | SkipJsonSchema[None] = _own(
        "The squeezer's own copy only: this card is yours to peel and turn."
    )

    @classmethod
    def of(cls, stamp: Stamp, event: CardSqueezed) -> SqueezeEvent:
        return cls(
            **stamp,
            round_id=event.round_id,
            hand=event.hand,
            position=event.position,
            squeezer=event.by,
            deadline_ms=event.deadline,
        )


class PeelEvent(TableEvent):
    """The squeezer peels the card being squeezed: from which corner or side, how far (0 flat,
    1 peeled to the turn). Only the back and the card's blank underside show; never its face."""

    type: Literal["peel"] = "peel"
    round_id: int
    hand: Hand
    position: int
    edge: Edge
    progress: float = Field(ge=0.0, le=1.0)


class RefusedMessage(Message):
    """Private, outside the table's sequence: a peel or turn this connection sent was refused
    (and changed nothing)."""

    type: Literal["refused"] = "refused"
    of: Literal["peel", "turn"]
    code: str = Field(description="A refusal code (as in an HTTP error body).")
    message: str


class CardEvent(TableEvent):
    type: Literal["card"] = "card"
    round_id: int
    hand: Hand
    position: int = Field(description="The card's place in its hand, 0 to 2.")
    index: int = Field(description="The card's place in the deal.")
    card: str = Field(description='The card, e.g. "Td".')

    @classmethod
    def of(cls, stamp: Stamp, event: CardTurned) -> CardEvent:
        card = event.card
        return cls(
            **stamp,
            round_id=event.round_id,
            hand=card.hand,
            position=card.position,
            index=card.index,
            card=card.card.code,
        )


class CoupResult(_Model):
    """The public result of a revealed coup (the snapshot's ``result``)."""

    winner: Winner
    player_total: int
    banker_total: int
    natural: bool
    player_pair: bool
    banker_pair: bool
    player: list[str]
    banker: list[str]

    @classmethod
    def of(cls, coup: Coup) -> CoupResult:
        return cls(
            winner=coup.winner.value,
            player_total=coup.player_total,
            banker_total=coup.banker_total,
            natural=coup.natural,
            player_pair=coup.player_pair,
            banker_pair=coup.banker_pair,
            player=[card.code for card in coup.player.cards],
            banker=[card.code for card in coup.banker.cards],
        )


class RoundResultEvent(TableEvent):
    type: Literal["round_result"] = "round_result"
    round_id: int
    winner: Winner
    player_total: int
    banker_total: int
    natural: bool
    player_pair: bool
    banker_pair: bool
    player: list[str]
    banker: list[str]
    roads: dict[str, Any] = Field(description="The roads with this coup added.")

    @classmethod
    def of(cls, stamp: Stamp, event: ResultShown, roads: dict[str, Any]) -> RoundResultEvent:
        result = CoupResult.of(event.coup).model_dump()
        return cls(**stamp, round_id=event.round_id, **result, roads=roads)


class WagerResult(_Model):
    bet: str
    stake: int
    event: str
    result: Literal["win", "lose", "push", "half"]
    returned: int


class SettledEvent(TableEvent, _OmitsAbsent):
    """Every bet of the round is settled. A player's own copy adds their results."""

    ABSENT: ClassVar[tuple[str, ...]] = ("wagers", "staked", "returned", "net", "balance")

    type: Literal["settled"] = "settled"
    round_id: int
    winner: Winner
    players: int = Field(description="How many players had bets on the round.")
    wagers: list[WagerResult] | SkipJsonSchema[None] = _own("The player's own copy only.")
    staked: int | SkipJsonSchema[None] = _own("The player's own copy only.")
    returned: int | SkipJsonSchema[None] = _own("The player's own copy only.")
    net: int | SkipJsonSchema[None] = _own("The player's own copy only.")
    balance: int | SkipJsonSchema[None] = _own(
        "The player's own copy only; absent for an operator's player, whose wallet's answer "
        "to the credit follows as a `balance` message."
    )

    @classmethod
    def of(cls, stamp: Stamp, event: RoundSettled, players: int) -> SettledEvent:
        return cls(**stamp, round_id=event.round_id, winner=event.winner.value, players=players)


class RoundVoidEvent(TableEvent, _OmitsAbsent):
    """The round is void and every stake returned. A player's own copy says how much."""

    ABSENT: ClassVar[tuple[str, ...]] = ("returned",)

    type: Literal["round_void"] = "round_void"
    round_id: int = Field(description="The server-wide round id.")
    shoe_number: int | None = Field(
        description="The number of the round's shoe at its table (null only for a shoe the "
        "table has not shown): with `number`, how players name the round."
    )
    number: int = Field(description="The round's number in its shoe.")
    reason: str
    returned: int | SkipJsonSchema[None] = _own("The player's own copy only.")

    @classmethod
    def of(
        cls, stamp: Stamp, event: RoundVoided, number: int, shoe_number: int | None
    ) -> RoundVoidEvent:
        return cls(
            **stamp,
            round_id=event.round_id,
            shoe_number=shoe_number,
            number=number,
            reason=event.reason,
        )


class WatchingEvent(TableEvent):
    """The audience changed (sent at most every ``max(0.25 s, clients / 1000 s)``)."""

    type: Literal["watching"] = "watching"
    count: int


class RealityCheckEvent(Message):
    """Private, outside the table's sequence: the player's reality check is due."""

    type: Literal["reality_check"] = "reality_check"
    at: str = Field(description="ISO-8601.")
    started_at: str = Field(description="ISO-8601: the session's start.")
    time_played_s: int
    net_result: int
    wagered: int
    message: str
    table_id: str

    @classmethod
    def of(cls, check: RealityCheck, table_id: str) -> RealityCheckEvent:
        return cls.model_validate({**check.to_json(), "table_id": table_id})


class BalanceMessage(Message):
    """Private, outside the table's sequence: the wallet of an operator's player answered a
    credit (a win, a stake given back) with this balance (``server.outbox_sender``)."""

    type: Literal["balance"] = "balance"
    balance: int = Field(description="Minor units, as the operator's wallet holds them.")
    currency: str


#: Any message of the feed, told apart by its ``type``.
AnyMessage = Annotated[
    SnapshotMessage
    | ShoeStartEvent
    | RoundOpenEvent
    | StakesEvent
    | BetsClosedEvent
    | SqueezeEvent
    | PeelEvent
    | CardEvent
    | RoundResultEvent
    | SettledEvent
    | RoundVoidEvent
    | ShoeEndEvent
    | StudioEvent
    | WatchingEvent
    | RealityCheckEvent
    | RefusedMessage
    | BalanceMessage,
    Field(discriminator="type"),
]
MESSAGES: TypeAdapter[AnyMessage] = TypeAdapter(AnyMessage)


def events_schema() -> dict[str, Any]:
    """The JSON Schema of every message of the table feed (``docs/events.schema.json``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "baccarat table feed messages",
        "description": (
            "Every message the WebSocket /ws/tables/{table_id} sends, told apart by its "
            "type; generated from the models of baccarat.server.events (schema_text)."
        ),
        **MESSAGES.json_schema(),
    }


def schema_text() -> str:
    """``events_schema`` as the file holds it."""
    return json.dumps(events_schema(), indent=2, ensure_ascii=False) + "\n"

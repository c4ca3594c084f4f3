"""What the runtime publishes: typed events, handed to every subscriber in order.

The live table publishes what it shows (``RoundShown``, ``StakesShown``, ``ShoeStarted``,
``ShoeEnded``, ``TableSynced``: the server's feed turns each into its message), and the
dealer publishes what the rest of the service counts and watches (``RoundPaid`` for the
integrity monitor and the metrics, ``RoundCancelled`` for the metrics). A subscriber is a
plain callable; it runs on the dealer's task and must not wait (the feed hands messages on,
the integrity monitor queues the round).

>>> seen: list[LiveEvent] = []
>>> bus = Subscribers()
>>> bus.add(seen.append)
>>> bus.publish(TableSynced("standard"))
>>> seen
[TableSynced(table_id='standard')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from baccarat.analysis.exact.counts import CardCounts
from baccarat.coup import Coup
from baccarat.rulesets import RuleSet
from baccarat.store.rounds import RoundRow
from baccarat.store.settlement import PlayerSettlement
from baccarat.store.shoes import ShoeRow
from baccarat.table import RoundEvent

__all__ = [
    "LiveEvent",
    "PeelShown",
    "RoundCancelled",
    "RoundPaid",
    "RoundShown",
    "ShoeEnded",
    "ShoeStarted",
    "StakesShown",
    "StudioShown",
    "Subscriber",
    "Subscribers",
    "TableSynced",
]

#: Each player's own part of a ``round_settled`` or ``round_voided`` (only their copy).
Own = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class RoundShown:
    """The table showed ``event`` of round ``row`` (its state after the event is the table's)."""

    table_id: str
    row: RoundRow
    event: RoundEvent
    own: Own | None = None


@dataclass(frozen=True, slots=True)
class StakesShown:
    """The open round's stakes per spot moved (summed over every player)."""

    table_id: str
    round_id: int
    stakes: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class ShoeStarted:
    """A new shoe is in play: its commitment, before its first round."""

    table_id: str
    shoe: ShoeRow


@dataclass(frozen=True, slots=True)
class ShoeEnded:
    """The shoe has ended: its server seed, for anyone to check the commitment."""

    table_id: str
    shoe: ShoeRow
    server_seed: bytes


@dataclass(frozen=True, slots=True)
class TableSynced:
    """The table's state changed without an event (a recovery): snapshots should follow."""

    table_id: str


@dataclass(frozen=True, slots=True)
class RoundPaid:
    """A round was settled: its coup, what the shoe held before it, each player's part."""

    table_id: str
    ruleset: RuleSet
    row: RoundRow
    coup: Coup
    #: The cards the shoe held before the coup; ``None`` for a round resumed after a restart.
    before: CardCounts | None
    players: Mapping[str, PlayerSettlement]


@dataclass(frozen=True, slots=True)
class RoundCancelled:
    """A round was voided (``actor``: the dealer's own void after a restart, or staff's)."""

    table_id: str
    row: RoundRow
    returned: Mapping[str, int]
    actor: str


@dataclass(frozen=True, slots=True)
class StudioShown:
    """A studio table's desk changed (what it waits for, a halt, a misscan); ``notice`` names
    what happened, for the players (``None``: only the state moved)."""

    table_id: str
    notice: str | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class PeelShown:
    """The squeezer peeled the card being squeezed from ``edge`` as far as ``progress``."""

    table_id: str
    round_id: int
    hand: str
    position: int
    edge: str
    progress: float


LiveEvent = (
    RoundShown
    | StakesShown
    | ShoeStarted
    | ShoeEnded
    | TableSynced
    | RoundPaid
    | RoundCancelled
    | StudioShown
    | PeelShown
)
Subscriber = Callable[[LiveEvent], None]


class Subscribers:
    """The subscribers of one runtime, each handed every event in order."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def add(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    def remove(self, subscriber: Subscriber) -> None:
        self._subscribers.remove(subscriber)

    def publish(self, event: LiveEvent) -> None:
        for subscriber in self._subscribers:
            subscriber(event)

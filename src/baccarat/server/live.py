"""What the dealer's table shows right now, and the events it hands on.

The live table holds only what has been revealed: the stored cards of a round are in the
database, but a card enters ``revealed`` (and any message) only at its reveal. The dealer
hands the table the events its round's state machine returned (``announce``): the table
follows them (cards shown, result, roads, the last finished round) and makes each its
message (``baccarat.server.events``) with the table's next ``seq``. It hands each on as a
``Broadcast`` (the message, serialized once, and the snapshot after it) to its outlet: this
node's table mirror, or Redis for the mirrors of every node (``baccarat.server.fanout``).
The clients themselves are the mirrors' (``baccarat.server.mirror``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from baccarat.fair import ALGORITHM
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet
from baccarat.server.broadcast import Broadcast
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.events import (
    BetsClosedEvent,
    CardEvent,
    CoupResult,
    RoundOpenEvent,
    RoundResultEvent,
    RoundVoidEvent,
    SettledEvent,
    ShoeEndEvent,
    ShoeStartEvent,
    SqueezeEvent,
    StakesEvent,
    Stamp,
    TableEvent,
    WatchingEvent,
)
from baccarat.store.rounds import RoundChange, RoundRow
from baccarat.store.shoes import ShoeRow
from baccarat.table import (
    BetsClosed,
    CardSqueezed,
    CardTurned,
    Phase,
    ResultShown,
    RevealedCard,
    RoundEvent,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    TableSettings,
    turn_order,
)

__all__ = [
    "WATCHING_DELAY_S",
    "LiveTable",
    "Outlet",
    "finished_round",
    "ruleset_view",
]

#: Where a live table's broadcasts go.
Outlet = Callable[[Broadcast], None]
#: The audience count is sent this long after it changes: a crowd joining at once costs one
#: ``watching`` event, not one per newcomer for every client.
WATCHING_DELAY_S = 0.25


def ruleset_view(ruleset: RuleSet) -> dict[str, Any]:
    """Rules, limits, pay tables and chips as the API shows them."""
    rules = ruleset.bets.values()
    return {
        "ruleset": {
            "name": ruleset.name,
            "title": ruleset.title,
            "description": ruleset.description,
            "currency": ruleset.currency,
            "minor_unit": ruleset.minor_unit,
        },
        "limits": {
            "min": min(rule.min_stake for rule in rules),
            "max": max(rule.max_stake for rule in rules),
        },
        "bets": {
            name: {
                "label": rule.type.label,
                "description": rule.type.description,
                "min_stake": rule.min_stake,
                "max_stake": rule.max_stake,
                "pays": {event: str(payout) for event, payout in rule.pays.items()},
            }
            for name, rule in ruleset.bets.items()
        },
        "pays": {
            name: {event: str(payout) for event, payout in rule.pays.items()}
            for name, rule in ruleset.bets.items()
        },
        "chips": list(ruleset.chips),
    }


def finished_round(row: RoundRow) -> dict[str, Any]:
    """A finished round as the snapshot's ``last_round`` shows it."""
    return {
        "id": row.id,
        "number": row.number,
        "phase": row.phase.value,
        "void_reason": row.void_reason,
    }


class LiveTable:
    """The in-memory face of one table, owned by its dealer; what it shows goes to ``outlet``.

    ``audience`` counts who watches the table (on every node).
    """

    def __init__(
        self,
        settings: TableSettings,
        ruleset: RuleSet,
        clock: Clock,
        *,
        outlet: Outlet,
        audience: Callable[[], int],
        seq: int = 0,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.outlet = outlet
        self.audience = audience
        self.ruleset = ruleset
        self._rules_view = ruleset_view(ruleset)
        self._ruleset_toml = ruleset.to_toml()
        self.shoe: ShoeRow | None = None
        #: The last ended shoe, public with its server seed.
        self.previous_shoe: dict[str, Any] | None = None
        #: Cards left in the shoe before the current round's first card.
        self.cards_left = 0
        #: The round in play, as its state machine last left it.
        self.round: RoundRow | None = None
        #: The cards turned so far, in the order they were turned.
        self.revealed: list[RevealedCard] = []
        self.result: dict[str, Any] | None = None
        #: The table's newest settled or voided round (``finished_round``): a client that
        #: connects after a restart voided or settled a round still learns of it.
        self.last_round: dict[str, Any] | None = None
        self.board = Scoreboard()
        self._roads: tuple[tuple[int, int], dict[str, Any]] | None = None
        #: The ``seq`` of the last event sent (a dealer taking a table over goes on from it).
        self.seq = seq
        #: The last audience count sent in a ``watching`` event, and its pending timer.
        self.watching_sent = 0
        self._watching_timer: asyncio.TimerHandle | None = None
        #: Every player's stakes on the round in play, summed per spot (the dealer reads them
        #: from the database while the round is open: in a cluster every node takes bets).
        self.stakes: dict[str, int] = {}

    @property
    def id(self) -> str:
        return self.settings.table_id

    @property
    def phase(self) -> Phase | None:
        """The phase of the round in play (``None`` between shoes)."""
        return None if self.round is None else self.round.phase

    def begin(self, row: RoundRow | None) -> None:
        """Put ``row`` in play (``None``: no round), with the cards it has shown already (a
        round resumed after a restart has some), in the order this table turns them."""
        if row is None or self.round is None or row.id != self.round.id:
            self.stakes = {}
        self.round, self.revealed, self.result = row, [], None
        if row is not None and row.cards is not None:
            order = turn_order(row.state.coup, self.settings.dealing)
            self.revealed = [card for card in order if row.state.turned(card)]

    def follow(
        self, change: RoundChange, own: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        """The round in play moved: show it as its state machine left it, send its events."""
        self.round = change.row
        if change.events:
            self.announce(change.row, change.events, own)
        else:  # a change without an event (the cards stored): the snapshots still follow
            self.sync()

    def use_ruleset(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self._rules_view = ruleset_view(ruleset)
        self._ruleset_toml = ruleset.to_toml()

    def snapshot(self) -> dict[str, Any]:
        """Everything a newcomer needs, showing only revealed cards."""
        round_state = None
        if self.round is not None:
            round_state = {
                "id": self.round.id,
                "number": self.round.number,
                "shoe_id": self.round.shoe_id,
                "phase": self.round.phase.value,
                "opened_at": iso_utc(self.round.opened_at),
                "closes_at": iso_utc(self.round.closes_at),
                "closes_at_ms": self.round.closes_at,
            }
        shoe_state = None
        if self.shoe is not None:
            shoe_state = {
                "id": self.shoe.id,
                "number": self.shoe.number,
                "algorithm": ALGORITHM,
                "decks": self.shoe.decks,
                "commitment": self.shoe.commitment,
                "client_seed": self.shoe.client_seed,
                "cards_left": self.cards_left - len(self.revealed),
            }
        return {
            "id": self.id,
            **self._rules_view,
            # The rule set by name: a spec may be a file path of the server's, never shown.
            "settings": {**self.settings.to_json(), "ruleset": self.ruleset.name},
            "round": round_state,
            "cards": [card.to_json() for card in self.revealed],
            "result": self.result,
            "last_round": self.last_round,
            "roads": self.roads(),
            "shoe": shoe_state,
            "previous_shoe": self.previous_shoe,
            "watching": self.audience(),
            "stakes": dict(self.stakes),
            "seq": self.seq,
            "now": self.clock.now_ms(),
        }

    def roads(self) -> dict[str, Any]:
        """The roads snapshot, computed once per coup added (every newcomer's snapshot has it)."""
        key = (id(self.board), len(self.board))
        if self._roads is None or self._roads[0] != key:
            self._roads = (key, self.board.snapshot())
        return self._roads[1]

    def show_stakes(self, round_id: int, stakes: Mapping[str, int]) -> None:
        """The open round's stakes per spot, as last read: a ``stakes`` event if they moved."""
        if self.round is None or self.round.id != round_id or dict(stakes) == self.stakes:
            return
        self.stakes = dict(stakes)
        totals = dict(self.stakes)
        self.publish(lambda stamp: StakesEvent(**stamp, round_id=round_id, stakes=totals))

    def audience_changed(self) -> None:
        """The audience may have changed: its count goes out a little later (one event for
        a crowd joining at once)."""
        if self._watching_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: nobody to tell
            return
        # A big audience hears its count less often: each count is a message to everyone.
        delay = max(WATCHING_DELAY_S, self.audience() / 1000)
        self._watching_timer = loop.call_later(delay, self.send_watching)

    def send_watching(self) -> None:
        """Publish ``watching {count}`` if the audience changed since the last one sent."""
        self._watching_timer = None
        count = self.audience()
        if count != self.watching_sent:
            self.watching_sent = count
            self.publish(lambda stamp: WatchingEvent(**stamp, count=count))

    # -- what the dealer hands over ------------------------------------------------------

    def announce(
        self,
        row: RoundRow,
        events: Iterable[RoundEvent],
        own: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        """Follow and send the events the state machine of round ``row`` returned, in order.

        ``own`` is each player's own part of a ``settled`` or ``round_void`` (their results,
        what came back): only that player's copy carries it.
        """
        for event in events:
            self._follow(row, event)
            mine = own if isinstance(event, RoundSettled | RoundVoided) else None
            self.publish(partial(self._message, row=row, event=event, own=mine), mine)

    def _follow(self, row: RoundRow, event: RoundEvent) -> None:
        match event:
            case CardTurned(card=card):
                self.revealed.append(card)
            case ResultShown(coup=coup):
                self.board.add_coup(coup)
                self.result = CoupResult.of(coup).model_dump()
            case RoundSettled() | RoundVoided():
                self.last_round = finished_round(row)
            case _:
                pass

    def _message(
        self,
        stamp: Stamp,
        row: RoundRow,
        event: RoundEvent,
        own: Mapping[str, Mapping[str, Any]] | None,
    ) -> TableEvent:
        match event:
            case RoundOpened():
                return RoundOpenEvent.of(stamp, event, row)
            case BetsClosed():
                return BetsClosedEvent.of(stamp, event, self.stakes)
            case CardSqueezed():
                return SqueezeEvent.of(stamp, event)
            case CardTurned():
                return CardEvent.of(stamp, event)
            case ResultShown():
                return RoundResultEvent.of(stamp, event, self.roads())
            case RoundSettled():
                return SettledEvent.of(stamp, event, players=len(own or ()))
            case RoundVoided():
                return RoundVoidEvent.of(stamp, event)

    def announce_shoe_start(self, row: ShoeRow) -> None:
        """A new shoe is in play: its commitment, before its first round."""
        self.publish(lambda stamp: ShoeStartEvent.of(stamp, row))

    def announce_shoe_end(self, row: ShoeRow, server_seed: bytes) -> None:
        """The shoe has ended: its server seed, for anyone to check the commitment."""
        self.previous_shoe = row.public()
        self.publish(lambda stamp: ShoeEndEvent.of(stamp, row, server_seed))

    def publish(
        self,
        make: Callable[[Stamp], TableEvent],
        own: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> int:
        """Hand on the event ``make`` builds with the table's next stamp; a player in ``own``
        gets a copy with their own part added. Returns its ``seq``."""
        event = make(Stamp(seq=self.seq + 1, table_id=self.id, now=self.clock.now_ms()))
        self.seq = event.seq
        fields = event.model_dump(mode="json") if own else None
        mine = {player: dict(part) for player, part in (own or {}).items()}
        self.outlet(
            Broadcast(
                self.id, self.seq, event.text(), fields, mine, self.snapshot(), self._ruleset_toml
            )
        )
        return self.seq

    def sync(self) -> None:
        """Hand on the table's state without an event (after a change no event shows, such
        as a restart's recovery), so that every mirror's snapshot follows."""
        self.outlet(
            Broadcast(self.id, self.seq, None, None, {}, self.snapshot(), self._ruleset_toml)
        )

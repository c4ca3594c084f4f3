"""The feed of a dealt table: each event its live table shows, worded for clients.

The runtime's live table (``baccarat.live.table.LiveTable``) publishes what it shows as typed
events; ``TableFeed`` subscribes to it and makes each its message (``baccarat.server.events``)
with the table's next ``seq``. It hands each on as a ``Broadcast`` (the message, serialized
once, and the snapshot after it) to its outlet: this node's table mirror, or Redis for the
mirrors of every node (``baccarat.server.fanout``). The clients themselves are the mirrors'
(``baccarat.server.mirror``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from baccarat.fair import ALGORITHM
from baccarat.live.events import (
    LiveEvent,
    PeelShown,
    RoundShown,
    ShoeEnded,
    ShoeStarted,
    StakesShown,
    StudioShown,
    TableSynced,
)
from baccarat.live.table import LiveTable
from baccarat.rulesets import RuleSet
from baccarat.server.broadcast import Broadcast
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.events import (
    BetsClosedEvent,
    CardEvent,
    CoupResult,
    PeelEvent,
    RoundOpenEvent,
    RoundResultEvent,
    RoundVoidEvent,
    SettledEvent,
    ShoeEndEvent,
    ShoeStartEvent,
    SqueezeEvent,
    StakesEvent,
    Stamp,
    StudioEvent,
    TableEvent,
    WatchingEvent,
)
from baccarat.store.rounds import RoundRow
from baccarat.table import (
    BetsClosed,
    CardSqueezed,
    CardTurned,
    ResultShown,
    RoundEvent,
    RoundOpened,
    RoundSettled,
    RoundVoided,
)

__all__ = ["WATCHING_DELAY_S", "Outlet", "TableFeed", "ruleset_view"]

#: Where a table feed's broadcasts go.
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


class TableFeed:
    """The messages of one live table, handed to ``outlet``; ``audience`` counts who watches
    the table (on every node). Subscribes itself to the table."""

    def __init__(
        self,
        table: LiveTable,
        clock: Clock,
        *,
        outlet: Outlet,
        audience: Callable[[], int],
        seq: int = 0,
    ) -> None:
        self.table = table
        self.clock = clock
        self.outlet = outlet
        self.audience = audience
        self._rules: tuple[RuleSet, dict[str, Any], str] | None = None
        self._roads: tuple[tuple[int, int], dict[str, Any]] | None = None
        #: The ``seq`` of the last event sent (a dealer taking a table over goes on from it).
        self.seq = seq
        #: The last audience count sent in a ``watching`` event, and its pending timer.
        self.watching_sent = 0
        self._watching_timer: asyncio.TimerHandle | None = None
        table.subscribers.add(self.show)

    def show(self, event: LiveEvent) -> None:
        """Word what the table showed for its clients (the rest is not theirs)."""
        match event:
            case RoundShown(row=row, event=round_event, own=own):
                self.publish(partial(self._message, row=row, event=round_event, own=own), own)
            case StakesShown(round_id=round_id, stakes=stakes):
                totals = dict(stakes)
                self.publish(lambda stamp: StakesEvent(**stamp, round_id=round_id, stakes=totals))
            case ShoeStarted(shoe=shoe):
                self.publish(lambda stamp: ShoeStartEvent.of(stamp, shoe))
            case ShoeEnded(shoe=shoe, server_seed=seed):
                self.publish(lambda stamp: ShoeEndEvent.of(stamp, shoe, seed))
            case PeelShown():
                self.publish(
                    lambda stamp: PeelEvent.model_validate(
                        {
                            **stamp,
                            "round_id": event.round_id,
                            "hand": event.hand,
                            "position": event.position,
                            "edge": event.edge,
                            "progress": event.progress,
                        }
                    )
                )
            case TableSynced():
                self.sync()
            case StudioShown(notice=notice, detail=detail):
                view = self.table.studio_view() if self.table.studio_view else {}
                self.publish(
                    lambda stamp: StudioEvent(**stamp, studio=view, notice=notice, detail=detail)
                )
            case _:
                pass

    def _ruleset(self) -> tuple[dict[str, Any], str]:
        """The table's rule set as the API shows it and as text (made once per rule set)."""
        ruleset = self.table.ruleset
        if self._rules is None or self._rules[0] is not ruleset:
            self._rules = (ruleset, ruleset_view(ruleset), ruleset.to_toml())
        return self._rules[1], self._rules[2]

    def snapshot(self) -> dict[str, Any]:
        """Everything a newcomer needs, showing only revealed cards."""
        table = self.table
        round_state = None
        if table.round is not None:
            round_state = {
                "id": table.round.id,
                "number": table.round.number,
                "shoe_id": table.round.shoe_id,
                "phase": table.round.phase.value,
                "opened_at": iso_utc(table.round.opened_at),
                "closes_at": iso_utc(table.round.closes_at),
                "closes_at_ms": table.round.closes_at,
            }
        shoe_state = None
        if table.shoe is not None:
            shoe_state = {
                "id": table.shoe.id,
                "number": table.shoe.number,
                "kind": table.shoe.kind,
                "algorithm": ALGORITHM if not table.shoe.studio else "studio",
                "decks": table.shoe.decks,
                "commitment": table.shoe.commitment,
                "client_seed": table.shoe.client_seed,
                "cards_left": table.cards_left - len(table.revealed),
                "certificate": table.shoe.certificate,
            }
        rules_view, _ = self._ruleset()
        result = None if table.result is None else CoupResult.of(table.result).model_dump()
        return {
            "id": table.id,
            **rules_view,
            # The rule set by name: a spec may be a file path of the server's, never shown.
            "settings": {**table.settings.to_json(), "ruleset": table.ruleset.name},
            "round": round_state,
            "cards": [card.to_json() for card in table.revealed],
            "result": result,
            "last_round": table.last_round,
            "roads": self.roads(),
            "shoe": shoe_state,
            "previous_shoe": table.previous_shoe,
            "watching": self.audience(),
            "stakes": dict(table.stakes),
            "studio": None if table.studio_view is None else table.studio_view(),
            "squeeze": None if table.squeeze is None else dict(table.squeeze),
            "seq": self.seq,
            "now": self.clock.now_ms(),
        }

    def roads(self) -> dict[str, Any]:
        """The roads snapshot, computed once per coup added (every newcomer's snapshot has it)."""
        board = self.table.board
        key = (id(board), len(board))
        if self._roads is None or self._roads[0] != key:
            self._roads = (key, board.snapshot())
        return self._roads[1]

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

    def _message(
        self,
        stamp: Stamp,
        row: RoundRow,
        event: RoundEvent,
        own: Mapping[str, Mapping[str, Any]] | None,
    ) -> TableEvent:
        match event:
            case RoundOpened():
                return RoundOpenEvent.of(stamp, event, row, self.table.ruleset)
            case BetsClosed():
                return BetsClosedEvent.of(stamp, event, self.table.stakes)
            case CardSqueezed():
                return SqueezeEvent.of(stamp, event)
            case CardTurned():
                return CardEvent.of(stamp, event)
            case ResultShown():
                return RoundResultEvent.of(stamp, event, self.roads())
            case RoundSettled():
                return SettledEvent.of(stamp, event, players=len(own or ()))
            case RoundVoided():
                shoe_number = self.table.shoe_number(row.shoe_id)
                return RoundVoidEvent.of(stamp, event, row.number, shoe_number)

    def publish(
        self,
        make: Callable[[Stamp], TableEvent],
        own: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> int:
        """Hand on the event ``make`` builds with the table's next stamp; a player in ``own``
        gets a copy with their own part added. Returns its ``seq``."""
        event = make(Stamp(seq=self.seq + 1, table_id=self.table.id, now=self.clock.now_ms()))
        self.seq = event.seq
        fields = event.model_dump(mode="json") if own else None
        mine = {player: dict(part) for player, part in (own or {}).items()}
        _, toml = self._ruleset()
        self.outlet(
            Broadcast(self.table.id, self.seq, event.text(), fields, mine, self.snapshot(), toml)
        )
        return self.seq

    def sync(self) -> None:
        """Hand on the table's state without an event (after a change no event shows, such
        as a restart's recovery), so that every mirror's snapshot follows."""
        _, toml = self._ruleset()
        self.outlet(Broadcast(self.table.id, self.seq, None, None, {}, self.snapshot(), toml))

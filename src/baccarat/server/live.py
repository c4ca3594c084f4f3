"""What a table shows right now, and the WebSocket clients watching it.

The live state holds only what has been revealed: the stored cards of a round are in the
database, but a card enters ``revealed`` (and any message) only at its reveal. Every event
gets the table's next ``seq``; a client that sees a gap re-reads the snapshot.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from baccarat.coup import Coup
from baccarat.fair import ALGORITHM
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet
from baccarat.server.clock import Clock, iso_utc
from baccarat.store.rounds import RoundRow
from baccarat.store.shoes import ShoeRow
from baccarat.table import Phase, RevealedCard, TableSettings

__all__ = [
    "WATCHING_DELAY_S",
    "Client",
    "LiveTable",
    "coup_result",
    "finished_round",
    "ruleset_view",
]

#: A client further behind than this many messages is dropped (it reconnects for a snapshot).
MAX_QUEUE = 2_000
#: The audience count is sent this long after it changes: a crowd joining at once costs one
#: ``watching`` event, not one per newcomer for every client.
WATCHING_DELAY_S = 0.25


@dataclass(eq=False)
class Client:
    """One WebSocket connection: who it is (if a player) and what it still has to send."""

    player_id: str | None
    #: The hash of the session the player connected with (closed when the session ends).
    session: str | None = None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    #: The WebSocket close code and reason once the client is dropped.
    close_code: int = 1000
    close_reason: str = ""
    #: The task sending the queue to the socket (set by the feed).
    sender: asyncio.Task[None] | None = None

    def send(self, text: str) -> bool:
        """Queue a message; ``False`` (and the client dropped) if it has fallen too far behind."""
        if self.dropped:
            return False
        if self.queue.qsize() >= MAX_QUEUE:
            self.drop(1013, "too far behind: reconnect for a snapshot")
            return False
        self.queue.put_nowait(text)
        return True

    def drop(self, code: int, reason: str) -> None:
        """Stop sending now (even if blocked on a slow socket); the feed closes with ``code``."""
        if not self.dropped:
            self.dropped, self.close_code, self.close_reason = True, code, reason
            self.queue.put_nowait(None)
            if self.sender is not None:
                self.sender.cancel()


def ruleset_view(ruleset: RuleSet) -> dict[str, Any]:
    """Rules, limits, pay tables and chips as the API shows them."""
    rules = ruleset.bets.values()
    return {
        "ruleset": {
            "name": ruleset.name,
            "title": ruleset.title,
            "description": ruleset.description,
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


def coup_result(coup: Coup) -> dict[str, Any]:
    """The public result of a revealed coup."""
    return {
        "winner": coup.winner.value,
        "player_total": coup.player_total,
        "banker_total": coup.banker_total,
        "natural": coup.natural,
        "player_pair": coup.player_pair,
        "banker_pair": coup.banker_pair,
        "player": [card.code for card in coup.player.cards],
        "banker": [card.code for card in coup.banker.cards],
    }


def finished_round(row: RoundRow, phase: Phase, void_reason: str | None = None) -> dict[str, Any]:
    """A finished round as the snapshot's ``last_round`` shows it."""
    return {"id": row.id, "number": row.number, "phase": phase.value, "void_reason": void_reason}


class LiveTable:
    """The in-memory face of one table, owned by its dealer, read by the API and the feed."""

    def __init__(self, settings: TableSettings, ruleset: RuleSet, clock: Clock) -> None:
        self.settings = settings
        self.clock = clock
        self.ruleset = ruleset
        self._rules_view = ruleset_view(ruleset)
        self.shoe: ShoeRow | None = None
        #: The last ended shoe, public with its server seed.
        self.previous_shoe: dict[str, Any] | None = None
        #: Cards left in the shoe before the current round's first card.
        self.cards_left = 0
        self.round: RoundRow | None = None
        self.phase: Phase | None = None
        self.revealed: list[RevealedCard] = []
        self.result: dict[str, Any] | None = None
        #: The table's newest settled or voided round (``finished_round``): a client that
        #: connects after a restart voided or settled a round still learns of it.
        self.last_round: dict[str, Any] | None = None
        self.board = Scoreboard()
        self._roads: tuple[tuple[int, int], dict[str, Any]] | None = None
        self.seq = 0
        self.clients: set[Client] = set()
        #: The last audience count sent in a ``watching`` event, and its pending timer.
        self.watching_sent = 0
        self._watching_timer: asyncio.TimerHandle | None = None

    @property
    def id(self) -> str:
        return self.settings.table_id

    def use_ruleset(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self._rules_view = ruleset_view(ruleset)

    def snapshot(self) -> dict[str, Any]:
        """Everything a newcomer needs, showing only revealed cards."""
        round_state = None
        if self.round is not None and self.phase is not None:
            round_state = {
                "id": self.round.id,
                "number": self.round.number,
                "shoe_id": self.round.shoe_id,
                "phase": self.phase.value,
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
            "watching": len(self.clients),
            "seq": self.seq,
            "now": self.clock.now_ms(),
        }

    def roads(self) -> dict[str, Any]:
        """The roads snapshot, computed once per coup added (every newcomer's snapshot has it)."""
        key = (id(self.board), len(self.board))
        if self._roads is None or self._roads[0] != key:
            self._roads = (key, self.board.snapshot())
        return self._roads[1]

    def attach(self, client: Client) -> None:
        """Register a client and queue its snapshot first, so no event can come before it."""
        client.send(json.dumps({"type": "snapshot", "seq": self.seq, "table": self.snapshot()}))
        self.clients.add(client)
        self._audience_changed()

    def detach(self, client: Client) -> None:
        self.clients.discard(client)
        self._audience_changed()

    def _audience_changed(self) -> None:
        if self._watching_timer is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: nobody to tell
            return
        # A big audience hears its count less often: each count is a message to everyone.
        delay = max(WATCHING_DELAY_S, len(self.clients) / 1000)
        self._watching_timer = loop.call_later(delay, self.send_watching)

    def send_watching(self) -> None:
        """Publish ``watching {count}`` if the audience changed since the last one sent."""
        self._watching_timer = None
        count = len(self.clients)
        if count != self.watching_sent:
            self.watching_sent = count
            self.publish("watching", {"count": count})

    def publish(
        self,
        kind: str,
        data: Mapping[str, Any],
        private: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> int:
        """Send an event to every client; a player in ``private`` gets its fields added."""
        self.seq += 1
        message = {
            "type": kind,
            "seq": self.seq,
            "table_id": self.id,
            "now": self.clock.now_ms(),
            **data,
        }
        text = json.dumps(message)
        own: dict[str, str] = {}
        for client in list(self.clients):
            payload = text
            player = client.player_id
            if private and player is not None and player in private:
                if player not in own:
                    own[player] = json.dumps({**message, **private[player]})
                payload = own[player]
            if not client.send(payload):
                self.clients.discard(client)
        return self.seq

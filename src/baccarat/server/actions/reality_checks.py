"""Each connected player's due reality check, pushed once to their feeds.

When a reality check falls due, new bets are refused until the player acknowledges it
(``PlayerControls.acknowledge_reality_check``); the page learns of it by polling the session,
and a player watching a table is also sent it at once, as a private WebSocket event
(``{"type": "reality_check", ...}``) that carries no ``seq``: it is not part of the table's
public sequence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import partial

from sqlalchemy import Connection

from baccarat.responsible import RealityCheck
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock
from baccarat.server.events import RealityCheckEvent
from baccarat.server.service import Service
from baccarat.store.responsible import load_activity, load_controls

__all__ = ["due_reality_checks", "push_reality_checks"]

log = logging.getLogger("baccarat.server")


def due_reality_checks(
    c: Connection, players: Iterable[str], now_ms: int
) -> dict[str, tuple[str, RealityCheck]]:
    """The players whose reality check is due: when it fell due (a key) and the event."""
    now = from_epoch_ms(now_ms)
    controls = load_controls(c, players)
    due = {
        p: ctl.session
        for p, ctl in controls.items()
        if ctl.session is not None and ctl.session.reality_check_due(now)
    }
    if not due:
        return {}
    activity = load_activity(c, due, now_ms)
    found = {}
    for player, session in due.items():
        check = session.reality_check(activity[player], now)
        if check is not None and session.reality_check_due_at is not None:
            found[player] = (session.reality_check_due_at.isoformat(), check)
    return found


async def push_reality_checks(service: Service, clock: Clock, every_s: float = 1.0) -> None:
    """Every ``every_s`` seconds, send each connected player its due reality check, once."""
    sent: dict[str, str] = {}
    while True:
        await asyncio.sleep(every_s)
        try:
            clients = [
                (live.id, client)
                for live in service.tables.values()
                for client in list(live.clients)
                if client.player_id is not None
            ]
            players = {client.player_id for _, client in clients if client.player_id}
            if not players:
                continue
            now_ms = clock.now_ms()
            read = partial(due_reality_checks, players=players, now_ms=now_ms)
            due = await service.runner.read(read)
            for player, (key, check) in due.items():
                if sent.get(player) == key:
                    continue
                sent[player] = key
                for table_id, client in clients:
                    if client.player_id == player:
                        client.send(RealityCheckEvent.of(check, table_id).text())
        except asyncio.CancelledError:
            raise
        except Exception:  # a database hiccup must not stop the pusher; the next tick retries
            log.exception("pushing reality checks failed")

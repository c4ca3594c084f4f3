"""A player's feed lives no longer than the session it was opened with.

A logout or a break on this server closes the player's feeds at once (``end_feeds``); a
session ended elsewhere (another server, an operator) or idled out is noticed within
``every_s`` by ``watch_feed_sessions``: one read for all the sessions connected here. A
closed feed gets ``4401``; the page then reconnects as a spectator or logs in again.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from baccarat.server.service import Service
from baccarat.store.sessions import live_sessions

__all__ = ["SESSION_ENDED", "end_feeds", "watch_feed_sessions"]

#: The close code of a feed whose session has ended.
SESSION_ENDED = 4401
#: Session hashes looked up per query.
_CHUNK = 500

log = logging.getLogger("baccarat.server")


def end_feeds(service: Service, player_id: str, session: str | None = None) -> int:
    """Close the player's feeds (only those of ``session`` if given); how many."""
    closed = 0
    for live in service.tables.values():
        for client in list(live.clients):
            if client.player_id == player_id and session in (None, client.session):
                client.drop(SESSION_ENDED, "the session has ended")
                closed += 1
    return closed


async def watch_feed_sessions(service: Service, every_s: float = 2.0) -> None:
    """Close every feed whose session is no longer live, every ``every_s`` seconds."""
    while True:
        await asyncio.sleep(every_s)
        try:
            clients = [c for live in service.tables.values() for c in live.clients if c.session]
            hashes = sorted({c.session for c in clients if c.session})
            if not hashes:
                continue
            now, idle = service.tokens.now_ms(), service.tokens.idle_ms
            alive: set[str] = set()
            for start in range(0, len(hashes), _CHUNK):
                chunk = set(hashes[start : start + _CHUNK])
                read = partial(live_sessions, hashes=chunk, now=now, idle_ms=idle)
                alive |= await service.runner.read(read)
            for client in clients:
                if client.session not in alive:
                    client.drop(SESSION_ENDED, "the session has ended")
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a database hiccup: the next round checks again
            log.warning("checking the feeds' sessions failed: %s", error)

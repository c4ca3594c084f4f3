"""Players' bearer-token sessions: every token a client holds (a guest's or a login's) is
one ``auth_sessions`` row, keyed by the token's SHA-256 (the token itself is never stored),
and a single-use WebSocket ticket stands for one of them.

A session is live while it is not ended (logout, a break, an operator), not past its
absolute expiry and not idle (``store.session_rows``, the machinery staff sessions share).

>>> from baccarat.store.players import token_hash
>>> len(token_hash(new_ticket()))
64
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, delete, select

from baccarat.store.players import token_hash
from baccarat.store.schema import auth_sessions, ws_tickets
from baccarat.store.session_rows import SessionRows

__all__ = [
    "PLAYER_SESSIONS",
    "LiveSession",
    "confirm_sessions",
    "end_sessions",
    "issue_ticket",
    "live_session",
    "live_sessions",
    "new_ticket",
    "open_session",
    "redeem_ticket",
    "touch_session",
]


@dataclass(frozen=True, slots=True)
class LiveSession:
    """A live session: whose it is, the hash that names it, when it ends at the latest."""

    player_id: str
    token_hash: str
    expires_at: int
    last_seen_at: int


#: The players' sessions: ``auth_sessions`` rows, each a player's.
PLAYER_SESSIONS = SessionRows(auth_sessions, "player_id")


def open_session(
    connection: Connection, player_id: str, at: int, lifetime_ms: int
) -> tuple[str, int]:
    """A fresh bearer token for ``player_id`` valid at most ``lifetime_ms``, and its expiry."""
    return PLAYER_SESSIONS.open(connection, player_id, at, lifetime_ms)


def live_session(connection: Connection, token: str, now: int, idle_ms: int) -> LiveSession | None:
    """The live session of ``token`` (one primary-key read), or ``None``."""
    return _by_hash(connection, token_hash(token), now, idle_ms)


def _by_hash(connection: Connection, hashed: str, now: int, idle_ms: int) -> LiveSession | None:
    row = connection.execute(PLAYER_SESSIONS.find(hashed, now, idle_ms)).first()
    if row is None:
        return None
    return LiveSession(row.player_id, hashed, int(row.expires_at), int(row.last_seen_at))


def live_sessions(connection: Connection, hashes: set[str], now: int, idle_ms: int) -> set[str]:
    """Which of the session ``hashes`` are still live."""
    return PLAYER_SESSIONS.live_hashes(connection, hashes, now, idle_ms)


def confirm_sessions(
    connection: Connection, hashes: set[str], now: int, idle_ms: int, touch_ms: int
) -> set[str]:
    """Which of the session ``hashes`` are live, each recorded as used at ``now`` when its
    last recorded use is ``touch_ms`` old: the bet path's check, made in the transaction
    that takes the stakes, so a session ended anywhere places nothing."""
    return PLAYER_SESSIONS.confirm(connection, hashes, now, idle_ms, touch_ms)


def touch_session(connection: Connection, hashed: str, at: int) -> None:
    """Record a use of the session at ``at`` (it stays live another idle timeout)."""
    PLAYER_SESSIONS.touch(connection, hashed, at)


def end_sessions(
    connection: Connection, player_id: str, at: int, *, token: str | None = None
) -> int:
    """End the player's live sessions (or only the one of ``token``); how many ended."""
    hashed = None if token is None else token_hash(token)
    return PLAYER_SESSIONS.end(connection, at, owner_id=player_id, hashed=hashed)


def new_ticket() -> str:
    """A fresh WebSocket ticket (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def issue_ticket(connection: Connection, session_hash: str, at: int, ttl_ms: int) -> str:
    """A single-use ticket that opens the WebSocket feed as the session's player for
    ``ttl_ms``; only its hash is stored. Expired tickets are cleared on the way."""
    connection.execute(delete(ws_tickets).where(ws_tickets.c.expires_at <= at))
    ticket = new_ticket()
    connection.execute(
        ws_tickets.insert().values(
            ticket_hash=token_hash(ticket), session_hash=session_hash, expires_at=at + ttl_ms
        )
    )
    return ticket


def redeem_ticket(
    connection: Connection, ticket: str, now: int, idle_ms: int
) -> LiveSession | None:
    """Use up ``ticket``: the live session it was issued for, or ``None`` (unknown, used,
    expired, or its session has ended since). A ticket works once, even between servers:
    of two redemptions, only the one whose delete removed the row succeeds."""
    hashed = token_hash(ticket)
    row = connection.execute(
        select(ws_tickets.c.session_hash, ws_tickets.c.expires_at).where(
            ws_tickets.c.ticket_hash == hashed
        )
    ).first()
    if row is None:
        return None
    removed = connection.execute(
        delete(ws_tickets).where(ws_tickets.c.ticket_hash == hashed)
    ).rowcount
    if removed != 1 or int(row.expires_at) <= now:
        return None
    return _by_hash(connection, row.session_hash, now, idle_ms)

"""Bearer-token sessions: every token a client holds (a guest's or a login's) is one
``auth_sessions`` row, keyed by the token's SHA-256 (the token itself is never stored).

A session is live while it is not ended (logout, a break, an operator), not past its
absolute expiry (``expires_at``, fixed when it opens) and not idle: its last use
(``last_seen_at``) is less than the idle timeout ago. The idle timeout is the server's
setting, applied when a token is used, so changing it applies to every session at once.

>>> from baccarat.store.players import token_hash
>>> len(token_hash(new_ticket()))
64
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, delete, select, update

from baccarat.store.players import new_token, token_hash
from baccarat.store.schema import auth_sessions, ws_tickets

__all__ = [
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


def open_session(
    connection: Connection, player_id: str, at: int, lifetime_ms: int
) -> tuple[str, int]:
    """A fresh bearer token for ``player_id`` valid at most ``lifetime_ms``, and its expiry."""
    if lifetime_ms <= 0:
        raise ValueError(f"a session lifetime must be positive, not {lifetime_ms}")
    token = new_token()
    expires = at + lifetime_ms
    connection.execute(
        auth_sessions.insert().values(
            token_hash=token_hash(token),
            player_id=player_id,
            created_at=at,
            expires_at=expires,
            last_seen_at=at,
        )
    )
    return token, expires


def _live(now: int, idle_ms: int) -> tuple[ColumnElement[bool], ...]:
    return (
        auth_sessions.c.ended_at.is_(None),
        auth_sessions.c.expires_at > now,
        auth_sessions.c.last_seen_at > now - idle_ms,
    )


def live_session(connection: Connection, token: str, now: int, idle_ms: int) -> LiveSession | None:
    """The live session of ``token`` (one primary-key read), or ``None``."""
    return _by_hash(connection, token_hash(token), now, idle_ms)


def _by_hash(connection: Connection, hashed: str, now: int, idle_ms: int) -> LiveSession | None:
    query = select(
        auth_sessions.c.player_id, auth_sessions.c.expires_at, auth_sessions.c.last_seen_at
    ).where(auth_sessions.c.token_hash == hashed, *_live(now, idle_ms))
    row = connection.execute(query).first()
    if row is None:
        return None
    return LiveSession(row.player_id, hashed, int(row.expires_at), int(row.last_seen_at))


def live_sessions(connection: Connection, hashes: set[str], now: int, idle_ms: int) -> set[str]:
    """Which of the session ``hashes`` are still live."""
    if not hashes:
        return set()
    query = select(auth_sessions.c.token_hash).where(
        auth_sessions.c.token_hash.in_(sorted(hashes)), *_live(now, idle_ms)
    )
    return set(connection.scalars(query))


def confirm_sessions(
    connection: Connection, hashes: set[str], now: int, idle_ms: int, touch_ms: int
) -> set[str]:
    """Which of the session ``hashes`` are live, each recorded as used at ``now`` when its
    last recorded use is ``touch_ms`` old: the bet path's check, made in the transaction
    that takes the stakes, so a session ended anywhere places nothing."""
    live = live_sessions(connection, hashes, now, idle_ms)
    if live:
        connection.execute(
            update(auth_sessions)
            .where(
                auth_sessions.c.token_hash.in_(sorted(live)),
                auth_sessions.c.last_seen_at <= now - touch_ms,
            )
            .values(last_seen_at=now)
        )
    return live


def touch_session(connection: Connection, hashed: str, at: int) -> None:
    """Record a use of the session at ``at`` (it stays live another idle timeout)."""
    connection.execute(
        update(auth_sessions)
        .where(
            auth_sessions.c.token_hash == hashed,
            auth_sessions.c.ended_at.is_(None),
            auth_sessions.c.last_seen_at < at,
        )
        .values(last_seen_at=at)
    )


def end_sessions(
    connection: Connection, player_id: str, at: int, *, token: str | None = None
) -> int:
    """End the player's live sessions (or only the one of ``token``); how many ended."""
    query = update(auth_sessions).where(
        auth_sessions.c.player_id == player_id, auth_sessions.c.ended_at.is_(None)
    )
    if token is not None:
        query = query.where(auth_sessions.c.token_hash == token_hash(token))
    return connection.execute(query.values(ended_at=at)).rowcount


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

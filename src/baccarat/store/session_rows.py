"""Bearer-token sessions as rows: the one mechanism behind a player's sessions
(``auth_sessions``, owned by a ``player_id``) and a member of staff's (``staff_sessions``,
owned by a ``staff_id``). The two kinds stay in tables of their own, so that a token of one
kind opens nothing of the other; only the machinery is shared.

A row is keyed by the SHA-256 of its token (``players.token_hash``): the token itself is
never stored. A session is live while it is not ended (``ended_at``), not past its absolute
expiry (``expires_at``, fixed when it opens) and not idle: its last use (``last_seen_at``)
is less than the idle timeout ago. The idle timeout is passed in on every look-up, so the
server's setting applies to every session at once.

>>> from baccarat.store.schema import auth_sessions
>>> SessionRows(auth_sessions, "player_id").owner.name
'player_id'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, ColumnElement, Connection, Select, Table, select, update

from baccarat.store.players import new_token, token_hash

__all__ = ["SessionRows"]


@dataclass(frozen=True, slots=True)
class SessionRows:
    """The sessions of one table whose rows belong to the owner in ``owner_column``."""

    table: Table
    owner_column: str

    @property
    def owner(self) -> Column[Any]:
        """The column naming whose session a row is."""
        return self.table.c[self.owner_column]

    def open(
        self, connection: Connection, owner_id: str, at: int, lifetime_ms: int
    ) -> tuple[str, int]:
        """A fresh bearer token for ``owner_id`` valid at most ``lifetime_ms`` (only its hash
        is kept), and its expiry."""
        if lifetime_ms <= 0:
            raise ValueError(f"a session lifetime must be positive, not {lifetime_ms}")
        token = new_token()
        expires = at + lifetime_ms
        connection.execute(
            self.table.insert().values(
                {
                    "token_hash": token_hash(token),
                    self.owner_column: owner_id,
                    "created_at": at,
                    "expires_at": expires,
                    "last_seen_at": at,
                }
            )
        )
        return token, expires

    def live(self, now: int, idle_ms: int) -> tuple[ColumnElement[bool], ...]:
        """The conditions a row meets while its session is live at ``now``."""
        c = self.table.c
        return (c.ended_at.is_(None), c.expires_at > now, c.last_seen_at > now - idle_ms)

    def find(self, hashed: str, now: int, idle_ms: int) -> Select[Any]:
        """The query of the live session named ``hashed`` (one primary-key read): its owner,
        ``expires_at`` and ``last_seen_at``. A caller may join, add columns and conditions."""
        c = self.table.c
        return select(self.owner, c.expires_at, c.last_seen_at).where(
            c.token_hash == hashed, *self.live(now, idle_ms)
        )

    def live_hashes(
        self, connection: Connection, hashes: set[str], now: int, idle_ms: int
    ) -> set[str]:
        """Which of the session ``hashes`` are still live."""
        if not hashes:
            return set()
        column = self.table.c.token_hash
        query = select(column).where(column.in_(sorted(hashes)), *self.live(now, idle_ms))
        return set(connection.scalars(query))

    def confirm(
        self, connection: Connection, hashes: set[str], now: int, idle_ms: int, touch_ms: int
    ) -> set[str]:
        """Which of the session ``hashes`` are live, each recorded as used at ``now`` when
        its last recorded use is ``touch_ms`` old."""
        live = self.live_hashes(connection, hashes, now, idle_ms)
        if live:
            c = self.table.c
            connection.execute(
                update(self.table)
                .where(c.token_hash.in_(sorted(live)), c.last_seen_at <= now - touch_ms)
                .values(last_seen_at=now)
            )
        return live

    def touch(self, connection: Connection, hashed: str, at: int) -> None:
        """Record a use of the session ``hashed`` at ``at`` (it stays live another idle
        timeout); an ended session stays ended, and a later use is never moved back."""
        c = self.table.c
        connection.execute(
            update(self.table)
            .where(c.token_hash == hashed, c.ended_at.is_(None), c.last_seen_at < at)
            .values(last_seen_at=at)
        )

    def end(
        self,
        connection: Connection,
        at: int,
        *,
        owner_id: str | None = None,
        hashed: str | None = None,
    ) -> int:
        """End the live sessions of ``owner_id``, or the one named ``hashed``, or the one of
        both; how many ended. Naming neither is refused: it would end every session."""
        if owner_id is None and hashed is None:
            raise ValueError("name the owner or the session to end")
        c = self.table.c
        query = update(self.table).where(c.ended_at.is_(None))
        if owner_id is not None:
            query = query.where(self.owner == owner_id)
        if hashed is not None:
            query = query.where(c.token_hash == hashed)
        return connection.execute(query.values(ended_at=at)).rowcount

"""Bearer tokens: ``Authorization: Bearer <token>`` on HTTP (and on the WebSocket upgrade
of a client that can send headers); a browser's WebSocket takes a single-use ticket.

Every token, a guest's, a login's or a member of staff's, is a session in the database
(``baccarat.store.session_rows``), and every use reads it there: one primary-key read, no
cache. So a session ended anywhere (a logout or a break on another server, an operator)
is refused at once, by every server. A use records itself (``last_seen_at``) at most every ``touch_ms``: the
idle timeout is then exact to within that, at one write per session per ``touch_ms``.

The bet path is the one exception to the read per use, because it is the hot path: a
token's owner never changes, so ``bettor`` remembers it after the first look-up, and the
bet queue checks that the session is still live in the very transaction that takes the
stakes (one query per batch, ``store.sessions.confirm_sessions``). An ended session still
places nothing, and no bet waits for a read of its own. In a cluster the owners are shared
in Redis (``<prefix>:owner:<session hash>``, expiring with the longest session), so a bet
reaching any node finds its owner there rather than in the database.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from sqlalchemy import Connection

from baccarat.server.clock import Clock
from baccarat.server.store_threads import StoreRunner
from baccarat.store.players import token_hash
from baccarat.store.sessions import LiveSession, live_session, touch_session
from baccarat.store.staff import StaffSession, live_staff_session, touch_staff_session

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["MAX_TOKEN_CHARS", "SessionBook", "TokenBook", "bearer_token"]

#: The longest token looked up: a real one is 43 characters.
MAX_TOKEN_CHARS = 200
#: How many token owners the bet path remembers.
OWNERS_KEPT = 100_000


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization`` header, or ``None``.

    >>> bearer_token("Bearer abc"), bearer_token("bearer  abc "), bearer_token("Basic x")
    ('abc', 'abc', None)
    """
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


class _Used(Protocol):
    """What a book needs of a live session: its hash and its last recorded use."""

    @property
    def token_hash(self) -> str: ...

    @property
    def last_seen_at(self) -> int: ...


S = TypeVar("S", bound=_Used)
#: A look-up of the live session of a token: ``(connection, token, now, idle_ms)``.
Find = Callable[[Connection, str, int, int], S | None]
#: A record of a use: ``(connection, session hash, at)``.
Touch = Callable[[Connection, str, int], None]


class SessionBook(Generic[S]):
    """Look tokens of one kind of session up in the database on every use, and keep their
    sessions from idling: the one mechanism of players' and staff's tokens."""

    def __init__(
        self, runner: StoreRunner, clock: Clock, idle_ms: int, find: Find[S], touch: Touch
    ) -> None:
        self.runner = runner
        #: The clock sessions are judged by: the server's one clock.
        self.clock = clock
        #: A session unused this long is over.
        self.idle_ms = idle_ms
        self._find = find
        self._touch = touch

    def now_ms(self) -> int:
        """The sessions' clock now, in epoch milliseconds."""
        return self.clock.now_ms()

    @property
    def touch_ms(self) -> int:
        """How stale ``last_seen_at`` may get before a use writes it: a minute, or less
        for a short idle timeout (a thirtieth of it)."""
        return max(1, min(60_000, self.idle_ms // 30))

    async def session(self, token: str, *, touch: bool = True) -> S | None:
        """The live session of ``token``, or ``None``; a use unless ``touch`` is false."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        now, idle, find = self.now_ms(), self.idle_ms, self._find
        found = await self.runner.read(lambda c: find(c, token, now, idle))
        if found is not None and touch and now - found.last_seen_at >= self.touch_ms:
            hashed, record = found.token_hash, self._touch
            await self.runner.write(lambda c: record(c, hashed, now))
        return found


class TokenBook(SessionBook[LiveSession]):
    """The players' tokens, and (``staff``) the staff's: the same book over each kind's own
    table, so a token of one kind is nothing to the other."""

    def __init__(self, runner: StoreRunner, clock: Clock, idle_ms: int = 30 * 60_000) -> None:
        super().__init__(runner, clock, idle_ms, live_session, touch_session)
        #: Staff tokens, judged by the same clock and idle timeout.
        self.staff: SessionBook[StaffSession] = SessionBook(
            runner, clock, idle_ms, live_staff_session, touch_staff_session
        )
        #: Session hash -> its player: true for ever once true, so safe to keep.
        self._owners: dict[str, str] = {}
        #: The owners every node has looked up (a cluster's Redis), and its key prefix.
        self.shared: Redis | None = None
        self.shared_prefix = "baccarat"
        #: How long a shared owner is kept (the longest a session lives).
        self.shared_ms = 24 * 3_600_000

    async def player(self, token: str, *, touch: bool = True) -> str | None:
        """The player holding ``token``, or ``None`` (also for an ended or expired session)."""
        found = await self.session(token, touch=touch)
        return None if found is None else found.player_id

    def know(self, token: str, player_id: str) -> None:
        """Remember the owner of a token this server has just issued (its first bet then
        needs no read; the bet queue still checks the session live)."""
        self._remember(token_hash(token), player_id)

    def _remember(self, hashed: str, player_id: str) -> None:
        if len(self._owners) >= OWNERS_KEPT:
            self._owners.clear()  # anything dropped is simply read again
        self._owners[hashed] = player_id

    async def bettor(self, token: str) -> tuple[str, str] | None:
        """The player and the session hash behind ``token``, for a bet: read (and checked
        live) at the first use, then remembered; the bet queue checks liveness in the bet's own
        transaction. ``None`` for a token that is not a live session at its first use."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            return None
        hashed = token_hash(token)
        owner = self._owners.get(hashed) or await self._shared_owner(hashed)
        if owner is not None:
            self._remember(hashed, owner)
            return owner, hashed
        found = await self.session(token)
        if found is None:
            return None
        self._remember(hashed, found.player_id)
        await self._share_owner(hashed, found.player_id)
        return found.player_id, hashed

    async def _shared_owner(self, hashed: str) -> str | None:
        if self.shared is None:
            return None
        try:
            owner = await self.shared.get(f"{self.shared_prefix}:owner:{hashed}")
        except Exception:  # Redis away: the database answers
            return None
        return None if owner is None else owner.decode()

    async def _share_owner(self, hashed: str, player_id: str) -> None:
        if self.shared is None:
            return
        key = f"{self.shared_prefix}:owner:{hashed}"
        with contextlib.suppress(Exception):  # Redis away: the next node reads the database
            await self.shared.set(key, player_id, px=self.shared_ms)

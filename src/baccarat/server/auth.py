"""Bearer tokens: ``Authorization: Bearer <token>`` on HTTP, ``?token=`` on the WebSocket.

A guest's token maps to its player forever. A login's session token expires (its expiry
is remembered with the hit and checked by the injectable clock on every use) and ends at
logout or a break (``forget_player``). Only hashes of tokens are ever stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from baccarat.server.runner import StoreRunner
from baccarat.store.accounts import session_player
from baccarat.store.players import player_by_token

__all__ = ["TokenBook", "bearer_token"]


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


class TokenBook:
    """Look tokens up, remembering the players found."""

    def __init__(
        self,
        runner: StoreRunner,
        capacity: int = 100_000,
        now_ms: Callable[[], int] | None = None,
    ) -> None:
        self.runner = runner
        self.capacity = capacity
        #: The clock session expiry is judged by (the app factory installs the server's).
        self.now_ms: Callable[[], int] = now_ms or (lambda: time.time_ns() // 1_000_000)
        self._known: dict[str, tuple[str, int | None]] = {}

    def remember(self, token: str, player_id: str, expires_at: int | None = None) -> None:
        if len(self._known) >= self.capacity:
            self._known.clear()
        self._known[token] = (player_id, expires_at)

    def forget(self, token: str) -> None:
        self._known.pop(token, None)

    def forget_player(self, player_id: str) -> None:
        """Drop every remembered session token of the player (logout everywhere, a break)."""
        for token in [t for t, (p, exp) in self._known.items() if p == player_id and exp]:
            del self._known[token]

    async def player(self, token: str) -> str | None:
        """The player holding ``token``, or ``None`` (also for an ended or expired session)."""
        if len(token) > 200:
            return None
        now = self.now_ms()
        known = self._known.get(token)
        if known is not None:
            player_id, expires_at = known
            if expires_at is None or now < expires_at:
                return player_id
            self.forget(token)
            return None
        guest = await self.runner.read(lambda c: player_by_token(c, token))
        if guest is not None:
            self.remember(token, guest)
            return guest
        found = await self.runner.read(lambda c: session_player(c, token, now))
        if found is None:
            return None
        self.remember(token, *found)
        return found[0]

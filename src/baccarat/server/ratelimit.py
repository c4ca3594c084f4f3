"""Rate limits against brute force and floods: what is limited, by which key, how fast.

Built on ``limits`` (moving windows; in memory by default, or any of its storages, such as
Redis to share the counts between several servers). A rate is a ``limits`` string; several
windows separated by ``;`` make a stepped backoff: ``"5/minute;20/hour"`` lets 5 attempts
through in any minute and 20 in any hour, so an attacker who keeps trying waits longer.

=========================  ============================  ==================================
what                       key                           default
=========================  ============================  ==================================
login attempts             client address                ``30/minute;300/hour``
login attempts             username and client address   ``5/minute;20/hour`` (cleared by a
                                                         good login)
login attempts             username                      ``10/minute;100/hour`` (cleared by
                                                         a good login)
account registrations      client address                ``10/minute;50/hour``
guest players              client address                ``60/minute;600/hour``
failed-login audit rows    the whole server              ``10/second;300/minute``
=========================  ============================  ==================================

A refused request is answered ``429`` with ``Retry-After`` (whole seconds) and the error
body ``{"error": {"code": "rate_limited", ...}}`` before any database read or password
hash: refusing costs the server one counter lookup. Failed logins past the audit rate are
counted, not written; the next audit row says how many went unwritten.

The client address is the socket peer's (``scope["client"]``): ``baccarat serve`` trusts
``X-Forwarded-For`` only from the proxies named by ``--forwarded-allow-ips``.

>>> settings = RateLimitSettings(login_per_address="2/minute")
>>> limiter = RateLimiter(settings)
>>> import asyncio
>>> async def three() -> list[float | None]:
...     return [await limiter.hit("login_per_address", "10.0.0.1") for _ in range(3)]
>>> waits = asyncio.run(three())
>>> waits[:2], 0 < waits[2] <= 60
([None, None], True)
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, fields
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from baccarat.server.errors import ApiError

__all__ = [
    "RateLimitSettings",
    "RateLimitedError",
    "RateLimiter",
    "username_key",
]

log = logging.getLogger("baccarat.server")

#: The names of the rates of ``RateLimitSettings`` (every field but the storage and switch).
RATES = (
    "login_per_address",
    "login_per_user_address",
    "login_per_username",
    "accounts_per_address",
    "guests_per_address",
    "failed_login_audit",
)


@dataclass(frozen=True, slots=True)
class RateLimitSettings:
    """The rates (``limits`` strings) and where the counts are kept.

    >>> RateLimitSettings(guests_per_address="often")
    Traceback (most recent call last):
    ...
    ValueError: guests_per_address: 'often' is not a rate such as '10/minute;100/hour'
    """

    login_per_address: str = "30/minute;300/hour"
    login_per_user_address: str = "5/minute;20/hour"
    login_per_username: str = "10/minute;100/hour"
    accounts_per_address: str = "10/minute;50/hour"
    guests_per_address: str = "60/minute;600/hour"
    failed_login_audit: str = "10/second;300/minute"
    #: ``memory://`` (this process), or a ``limits`` storage URI such as ``redis://host:6379``.
    storage: str = "memory://"
    #: Prefix of the storage's keys (several services can share one Redis).
    key_prefix: str = "baccarat"
    #: ``False`` turns every limit off (a benchmark's baseline, a closed test bed).
    enabled: bool = True

    def __post_init__(self) -> None:
        for name in RATES:
            rate = getattr(self, name)
            try:
                items = parse_many(rate)
            except ValueError:
                items = []
            if not items:
                raise ValueError(f"{name}: {rate!r} is not a rate such as '10/minute;100/hour'")
        scheme = self.storage.partition("://")[0]
        if not self.storage.partition("://")[1] or scheme.startswith("async+"):
            raise ValueError(
                f"rate limit storage: {self.storage!r} is not a URI such as memory:// or "
                "redis://host:6379"
            )

    def with_rates(self, **rates: str) -> RateLimitSettings:
        """A copy with some rates replaced (by field name)."""
        values: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(rates)
        return RateLimitSettings(**values)


def username_key(username: str) -> str:
    """The key a login's username is counted under: as the login looks it up.

    >>> username_key("  Alice "), len(username_key("x" * 500))
    ('alice', 64)
    """
    return username.strip().lower()[:64]


class RateLimitedError(ApiError):
    """The 429 refusal, with its ``Retry-After`` header (whole seconds, at least 1).

    >>> error = RateLimitedError(2.2, "logins")
    >>> error.status, error.code, error.headers, error.message
    (429, 'rate_limited', {'Retry-After': '3'}, 'too many logins; try again in 3 s')
    """

    def __init__(self, retry_after: float, what: str) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(429, "rate_limited", f"too many {what}; try again in {seconds} s")
        self.headers = {"Retry-After": str(seconds)}


class RateLimiter:
    """The server's limits: ``hit`` counts one request and says how long to wait if refused."""

    def __init__(self, settings: RateLimitSettings) -> None:
        self.settings = settings
        self.items: dict[str, list[RateLimitItem]] = {
            name: parse_many(getattr(settings, name)) for name in RATES
        }
        self.storage = _open_storage(settings)
        self.strategy = MovingWindowRateLimiter(self.storage)
        self._warned_at = 0.0

    async def hit(self, name: str, *key: str) -> float | None:
        """Count one request under ``name`` for ``key``: ``None`` if allowed, else the seconds
        until it would be. Every window of the rate must allow it; a storage that does not
        answer lets the request through (logged once a minute)."""
        if not self.settings.enabled:
            return None
        try:
            for item in self.items[name]:
                if not await self.strategy.hit(item, name, *key):
                    stats = await self.strategy.get_window_stats(item, name, *key)
                    return max(1.0, stats.reset_time - time.time())
        except Exception as error:  # a storage outage must not lock every player out
            self._warn(error)
        return None

    async def clear(self, name: str, *key: str) -> None:
        """Forget the counts of ``key`` under ``name`` (a good login clears its failures)."""
        if not self.settings.enabled:
            return
        try:
            for item in self.items[name]:
                await self.strategy.clear(item, name, *key)
        except Exception as error:
            self._warn(error)

    def _warn(self, error: Exception) -> None:
        now = time.monotonic()
        if now - self._warned_at > 60:
            self._warned_at = now
            reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
            log.warning(
                "rate limit storage unavailable (%s: %s); requests are let through",
                type(error).__name__,
                reason,
            )


def _open_storage(settings: RateLimitSettings) -> Any:
    uri = settings.storage
    if uri.startswith(("redis://", "rediss://", "redis+")):
        return storage_from_string(
            f"async+{uri}", implementation="redispy", key_prefix=settings.key_prefix
        )
    return storage_from_string(f"async+{uri}")

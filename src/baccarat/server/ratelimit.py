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
failed-login audit rows    the whole server              ``2/second;60/minute``
WebSocket tickets          the session                   ``30/minute;300/hour``
=========================  ============================  ==================================

A refused request is answered ``429`` with ``Retry-After`` (whole seconds) and the error
body ``{"error": {"code": "rate_limited", ...}}`` before any database read or password
hash: refusing costs the server one counter lookup. The refusal is sent after a short pause
(``refusal_delay_s``, 1 s), so a client that ignores ``Retry-After`` and asks again at once
on the same connection makes one request a second, not thousands.

Failed logins past the audit rate are counted, not written; the next audit row says how many
went unwritten. Each row is a durable write (an fsync) on the one writer thread the bets
use: a flood of failures must not queue the bets behind it.

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
import threading
import time
from dataclasses import dataclass, fields
from typing import Any

import limits
from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindow
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.errors import ApiError
from baccarat.server.internals import missing_members

__all__ = [
    "QuietMemoryStorage",
    "RateLimitSettings",
    "RateLimitedError",
    "RateLimiter",
    "memory_storage",
    "missing_internals",
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
    "tickets_per_session",
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
    failed_login_audit: str = "2/second;60/minute"
    #: Each ticket is a durable write on the writer thread the bets use.
    tickets_per_session: str = "30/minute;300/hour"
    #: ``memory://`` (this process), or a ``limits`` storage URI such as ``redis://host:6379``.
    storage: str = "memory://"
    #: Prefix of the storage's keys (several services can share one Redis).
    key_prefix: str = "baccarat"
    #: ``False`` turns every limit off (a benchmark's baseline, a closed test bed).
    enabled: bool = True
    #: How long a refused request waits before its 429 is sent (seconds; costs no CPU).
    refusal_delay_s: float = 1.0

    def __post_init__(self) -> None:
        for name in RATES:
            rate = getattr(self, name)
            try:
                items = parse_many(rate)
            except ValueError:
                items = []
            if not items:
                raise ValueError(f"{name}: {rate!r} is not a rate such as '10/minute;100/hour'")
        if not 0 <= self.refusal_delay_s <= 60:
            raise ValueError(f"refusal delay: {self.refusal_delay_s} s is not within 0 to 60 s")
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
        message = f"too many {what}; try again in {seconds} s"
        super().__init__(Refusal(RefusalCode.RATE_LIMITED, message), {"Retry-After": str(seconds)})


class RateLimiter:
    """The server's limits: ``hit`` counts one request and says how long to wait if refused."""

    def __init__(self, settings: RateLimitSettings) -> None:
        self.settings = settings
        self.items: dict[str, list[RateLimitItem]] = {
            name: parse_many(getattr(settings, name)) for name in RATES
        }
        self.storage: Any = None
        self._local: MovingWindowRateLimiter | None = None
        self._shared: AsyncMovingWindow | None = None
        if settings.storage == "memory://":
            # In process: plain dictionary work, no await and no thread hop.
            self._local = MovingWindowRateLimiter(memory_storage())
        else:
            self.storage = _shared_storage(settings)
            self._shared = AsyncMovingWindow(self.storage)
        self._warned_at = 0.0

    async def hit(self, name: str, *key: str) -> float | None:
        """Count one request under ``name`` for ``key``: ``None`` if allowed, else the seconds
        until it would be. Every window of the rate must allow it; a storage that does not
        answer lets the request through (logged once a minute)."""
        if not self.settings.enabled:
            return None
        try:
            for item in self.items[name]:
                if self._local is not None:
                    allowed = self._local.hit(item, name, *key)
                    reset = 0.0 if allowed else self._local.get_window_stats(item, name, *key)[0]
                else:
                    assert self._shared is not None
                    allowed = await self._shared.hit(item, name, *key)
                    if not allowed:
                        reset = (await self._shared.get_window_stats(item, name, *key))[0]
                if not allowed:
                    return max(1.0, reset - time.time())
        except Exception as error:  # a storage outage must not lock every player out
            self._warn(error)
        return None

    async def clear(self, name: str, *key: str) -> None:
        """Forget the counts of ``key`` under ``name`` (a good login clears its failures)."""
        if not self.settings.enabled:
            return
        try:
            for item in self.items[name]:
                if self._local is not None:
                    self._local.clear(item, name, *key)
                elif self._shared is not None:
                    await self._shared.clear(item, name, *key)
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


#: What ``QuietMemoryStorage`` uses of ``limits``' ``MemoryStorage``: its private hooks (the
#: parent's code must still call the one overridden, or the override is never run) and the
#: attributes the sweep reads.
_HOOKS = ("_MemoryStorage__schedule_expiry", "_MemoryStorage__expire_events")
_ATTRIBUTES = ("_MemoryStorage__schedule_expiry", "events", "locks", "timer")


def missing_internals() -> list[str]:
    """What ``QuietMemoryStorage`` reads of the installed ``limits``' ``MemoryStorage`` and
    does not find: empty for the versions it is tested with."""
    return missing_members(MemoryStorage, methods=_HOOKS, attributes=_ATTRIBUTES)


def memory_storage() -> MemoryStorage:
    """The in-process storage: ``QuietMemoryStorage``, or (with one warning line) ``limits``'
    own if the installed ``limits`` lacks what it overrides; the counts are the same, only
    the sweeping of expired keys is the parent's."""
    missing = missing_internals()
    if not missing:
        return QuietMemoryStorage()
    log.warning(
        "limits %s's MemoryStorage lacks %s: rate limits in memory sweep as limits does",
        limits.__version__,
        ", ".join(missing),
    )
    return MemoryStorage()


class QuietMemoryStorage(MemoryStorage):
    """``limits``' memory storage, sweeping expired entries once a second rather than 10 ms
    after every hit: a sweep visits every key, and a flood of new keys (one per username
    tried) must not turn sweeping into the server's main work. Expired entries never count
    either way (each hit checks its window); the sweep only frees memory."""

    SWEEP_S = 1.0

    def _sweep(self) -> None:
        getattr(self, "_MemoryStorage__expire_events")()  # noqa: B009
        # The parent empties an expired key's list but keeps the key: drop it (one per
        # username tried would otherwise stay for the life of the process).
        for key in [key for key, events in list(self.events.items()) if not events]:
            with self.locks[key]:
                if not self.events.get(key):
                    self.events.pop(key, None)
                    self.locks.pop(key, None)

    # The parent's private hook (name-mangled); ``memory_storage`` checks it is still there.
    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802
        if not self.timer.is_alive():
            self.timer = threading.Timer(self.SWEEP_S, self._sweep)
            self.timer.daemon = True
            self.timer.start()


def _shared_storage(settings: RateLimitSettings) -> Any:
    uri = settings.storage
    if uri.startswith(("redis://", "rediss://", "redis+")):
        return storage_from_string(
            f"async+{uri}", implementation="redispy", key_prefix=settings.key_prefix
        )
    return storage_from_string(f"async+{uri}")

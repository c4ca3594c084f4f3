"""What the login, registration and guest routes call before doing any work: the rate limits
(``ratelimit``), the password pool (``hashing``) and the failed-login audit throttle.

One ``Guard`` lives on ``app.state.guard``; routes reach it through ``GuardDep``.

Every limit keyed by address counts an IPv6 client by its /64 (one subscriber's block), an
IPv4 client by its address. A login says at ``admit_login`` whether it comes from a known
device (``baccarat.server.devices``) or is a member of staff's: the password check of that
login then runs in the pool's lane kept for them; any other runs in the shared lane, within
its address's share.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from contextvars import ContextVar
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from baccarat.server.hashing import PasswordPool
from baccarat.server.metrics import Metrics
from baccarat.server.models import ErrorBody
from baccarat.server.ratelimit import RateLimitedError, RateLimiter, RateLimitSettings, username_key

__all__ = ["RATE_LIMITED", "Guard", "GuardDep", "address_key", "client_address"]

#: ``responses=`` entry of a rate-limited route.
RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {
        "model": ErrorBody,
        "description": "Too many requests (`rate_limited`); `Retry-After` says when to retry.",
        "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds."}},
    }
}

T = TypeVar("T")

#: How each limit names what it counts, in the 429's message.
_WHAT = {
    "login_per_address": "logins from this address",
    "login_per_user_address": "failed logins for this username",
    "login_per_username": "failed logins for this username",
    "accounts_per_address": "new accounts from this address",
    "guests_per_address": "new guest players from this address",
    "tickets_per_session": "WebSocket tickets for this session",
}


def address_key(address: str) -> str:
    """What an address is counted under: an IPv6 address by its /64, any other as it is.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("2001:db8:1:2:ffff::9")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("203.0.113.7"), address_key("unknown")
    ('203.0.113.7', 'unknown')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6 and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return address


def client_address(request: Request) -> str:
    """The client's address as limits count it (``address_key``): the socket peer, or what a
    trusted proxy said (see ``serve``)."""
    client = request.scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


#: The lane of the login being handled in this task: (known device or staff, address).
_LANE: ContextVar[tuple[bool, str]] = ContextVar("baccarat_login_lane", default=(False, ""))


class Guard:
    """The limits, the password pool, and the failed-login audit throttle of one server."""

    def __init__(
        self,
        settings: RateLimitSettings,
        metrics: Metrics,
        *,
        password_workers: int | None = None,
        password_queue: int = 64,
        password_cpu_share: float = 0.25,
    ) -> None:
        self.limiter = RateLimiter(settings)
        self.passwords = PasswordPool(password_workers, password_queue, password_cpu_share)
        self.metrics = metrics
        #: Failed logins not written to the audit log since the last one written.
        self.unwritten_failures = 0

    async def limit(self, name: str, *key: str) -> None:
        """Count one request; raise ``RateLimitedError`` (429) if ``name`` refuses it."""
        wait = await self.limiter.hit(name, *key)
        if wait is not None:
            self.metrics.rate_limited.labels(name).inc()
            await asyncio.sleep(self.limiter.settings.refusal_delay_s)
            raise RateLimitedError(wait, _WHAT.get(name, "requests"))

    async def hash(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the password pool, in the lane ``admit_login`` chose for this
        login; a full pool or lane refuses (429) after the delay."""
        known, address = _LANE.get()
        try:
            return await self.passwords.run(fn, *args, known=known, address=address)
        except RateLimitedError:
            self.metrics.rate_limited.labels("password_pool").inc()
            await asyncio.sleep(self.limiter.settings.refusal_delay_s)
            raise

    async def admit_login(
        self, request: Request, username: str, *, known: bool = False, staff: bool = False
    ) -> None:
        """Count a login attempt by address, by username and address, and by username; from a
        known device, by address only. A known device's or a member of staff's password check
        runs in the pool's kept lane."""
        address, user = client_address(request), username_key(username)
        _LANE.set((known or staff, address))
        await self.limit("login_per_address", address)
        if known:
            return  # guesses from elsewhere filled the username's counts, not this device's
        await self.limit("login_per_user_address", user, address)
        await self.limit("login_per_username", user)

    async def login_succeeded(self, request: Request, username: str) -> None:
        """A good login ends the backoff of its username (not of its address)."""
        address, user = client_address(request), username_key(username)
        await self.limiter.clear("login_per_user_address", user, address)
        await self.limiter.clear("login_per_username", user)

    async def failed_login_details(self, username: str) -> dict[str, Any] | None:
        """The details of the audit row of a failed login, or ``None`` to leave it unwritten
        (past the audit rate: counted, and the next row written says how many were not)."""
        if await self.limiter.hit("failed_login_audit") is not None:
            self.unwritten_failures += 1
            self.metrics.audit_unwritten.inc()
            return None
        details: dict[str, Any] = {"username": username_key(username)}
        if self.unwritten_failures:
            details["unwritten_before"] = self.unwritten_failures
            self.unwritten_failures = 0
        return details

    def close(self) -> None:
        self.passwords.close()


async def _guard(request: Request) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


GuardDep = Annotated[Guard, Depends(_guard)]

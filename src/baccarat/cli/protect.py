"""The checks of ``baccarat serve``'s protections that need the machine: the rate limit
storage reachable, the metrics address free; and uvicorn's proxy options. The options
themselves are checked by ``Settings``."""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING, Any

from baccarat.cli.app import fail

if TYPE_CHECKING:
    from baccarat.server.config import Settings

__all__ = ["check_bind", "check_protections", "uvicorn_proxy_options"]


def check_protections(settings: Settings) -> None:
    """Fail now, in one line (exit 2), if the rate limit storage cannot be reached or the
    metrics address cannot be listened on, rather than start a server without them."""
    limits = settings.rate_limits
    if limits.enabled and limits.storage != "memory://":
        _probe_storage(limits)
    if settings.metrics_address is not None:
        check_bind(*settings.metrics_address)


def _probe_storage(settings: Any) -> None:
    """Fail now, in one line, if the rate limit storage cannot be reached."""
    import asyncio

    from baccarat.server.ratelimit import RateLimiter

    async def probe() -> bool:
        limiter = RateLimiter(settings)
        return bool(await limiter.storage.check())

    try:
        reachable = asyncio.run(probe())
    except Exception as error:
        fail(f"cannot use the rate limit storage {settings.storage!r}: {type(error).__name__}")
    if not reachable:
        fail(f"cannot reach the rate limit storage {settings.storage!r}")


def check_bind(host: str, port: int) -> None:
    """Fail in one line if ``host:port`` cannot be listened on (taken, not an address here)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        fail(f"cannot listen for metrics on {host}:{port}: {error.strerror or error}")


def uvicorn_proxy_options(forwarded_allow_ips: str | None) -> dict[str, Any]:
    """Trust ``X-Forwarded-For`` only from the proxies named (``*``: any); by default the
    client address is the socket peer's (uvicorn would otherwise trust 127.0.0.1).

    >>> uvicorn_proxy_options(None)
    {'proxy_headers': False}
    >>> uvicorn_proxy_options("10.0.0.5")
    {'proxy_headers': True, 'forwarded_allow_ips': '10.0.0.5'}
    """
    if not forwarded_allow_ips:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}

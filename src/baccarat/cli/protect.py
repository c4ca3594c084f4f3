"""The protection options of ``baccarat serve``: rate limits, body limit, metrics, proxies.

>>> sorted(protection_settings([], None, 1000, None, None, 0))
['max_body_bytes', 'metrics_bind', 'metrics_token', 'password_cpu_share', 'password_workers', 'rate_limits']
>>> protection_settings(["guests_per_address=5/second"], None, 1000, None, None, 0)[
...     "rate_limits"
... ].guests_per_address
'5/second'
"""

from __future__ import annotations

import socket
from typing import Any

from baccarat.cli.app import fail

__all__ = ["check_bind", "protection_settings", "uvicorn_proxy_options"]


def protection_settings(
    rate_limits: list[str],
    storage: str | None,
    max_body_bytes: int,
    metrics_bind: str | None,
    metrics_token: str | None,
    password_workers: int,
    refusal_delay_s: float = 1.0,
    password_cpu_share: float = 0.25,
) -> dict[str, Any]:
    """``ServerConfig`` keyword arguments from the options, or a one-line error (exit 2)."""
    from baccarat.server.metrics import parse_bind
    from baccarat.server.ratelimit import RATES, RateLimitSettings

    rates: dict[str, str] = {}
    enabled = True
    for entry in rate_limits:
        if entry.strip().lower() == "off":
            enabled = False
            continue
        name, equals, rate = entry.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in RATES:
            fail(f"--rate-limit wants NAME=RATE with NAME one of {', '.join(RATES)}, or 'off'")
        rates[name] = rate.strip()
    try:
        settings = RateLimitSettings(
            storage=storage or "memory://", enabled=enabled, refusal_delay_s=refusal_delay_s
        ).with_rates(**rates)
        if settings.enabled and settings.storage != "memory://":
            _probe_storage(settings)
        bind = parse_bind(metrics_bind) if metrics_bind else None
    except ValueError as error:
        fail(str(error))
    if bind is not None:
        check_bind(*bind)
    return {
        "rate_limits": settings,
        "max_body_bytes": max_body_bytes,
        "metrics_bind": bind,
        "metrics_token": metrics_token or None,
        "password_workers": password_workers,
        "password_cpu_share": password_cpu_share,
    }


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

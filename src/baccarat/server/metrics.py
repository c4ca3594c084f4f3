"""Prometheus metrics of one server (its own registry, so several apps can share a process).

They are not on the public port by default: ``Metrics.listen`` serves them on a listener of
their own (``baccarat serve --metrics-bind HOST:PORT``), or ``/metrics`` answers holders of
a bearer token (``BACCARAT_METRICS_TOKEN``); see ``routers/health``.
"""

from __future__ import annotations

from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

__all__ = ["Listener", "Metrics", "parse_bind"]


class Listener(Protocol):
    def shutdown(self) -> None: ...

    def server_close(self) -> None: ...


def parse_bind(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for IPv6) as a pair; ``ValueError`` if it is not one.

    >>> parse_bind("127.0.0.1:9100"), parse_bind("[::1]:9100")
    (('127.0.0.1', 9100), ('::1', 9100))
    >>> parse_bind("9100")
    Traceback (most recent call last):
    ...
    ValueError: --metrics-bind wants HOST:PORT, such as 127.0.0.1:9100, not '9100'
    """
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--metrics-bind wants HOST:PORT, such as 127.0.0.1:9100, not {text!r}")
    return host, int(port)


class Metrics:
    """Bets accepted and refused, acknowledgement latency, rounds, WebSocket clients."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.bets_accepted = Counter(
            "baccarat_bets_accepted",
            "Bet requests accepted (each may hold several spots).",
            ["table"],
            registry=self.registry,
        )
        self.bets_refused = Counter(
            "baccarat_bets_refused",
            "Bet requests refused, by reason.",
            ["table", "code"],
            registry=self.registry,
        )
        self.ack_seconds = Histogram(
            "baccarat_bet_ack_seconds",
            "Time from receiving a bet request to its durable acknowledgement.",
            buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
            registry=self.registry,
        )
        self.batch_size = Histogram(
            "baccarat_bet_batch_size",
            "Bet requests committed together in one database transaction.",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
            registry=self.registry,
        )
        self.rounds = Counter(
            "baccarat_rounds",
            "Rounds finished, by how they ended.",
            ["table", "outcome"],
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "baccarat_gc_pause_seconds",
            "Full garbage collections, run between rounds (baccarat.server.quiet_gc).",
            buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "baccarat_rate_limited",
            "Requests refused with 429 by a rate limit (baccarat.server.ratelimit), by limit.",
            ["limit"],
            registry=self.registry,
        )
        self.audit_unwritten = Counter(
            "baccarat_failed_logins_unwritten",
            "Failed logins past the audit rate: counted here, not written one by one.",
            registry=self.registry,
        )
        self.clients = Gauge(
            "baccarat_ws_clients",
            "WebSocket clients connected.",
            ["table"],
            registry=self.registry,
        )
        self.leases = Gauge(
            "baccarat_table_leases_held",
            "Tables this node deals now (a cluster's node: 0 or 1 per table)",
            ["table"],
            registry=self.registry,
        )
        self.lease_changes = Counter(
            "baccarat_table_lease_changes_total",
            "Leases this node took, handed over or lost (fenced off), per table",
            ["table", "change"],
            registry=self.registry,
        )
        self.integrity_open = Gauge(
            "baccarat_integrity_open_alerts",
            "Integrity alerts open now, per table and kind (frequency, advantage)",
            ["table", "kind"],
            registry=self.registry,
        )
        self.integrity_alerts = Counter(
            "baccarat_integrity_alerts",
            "Integrity alerts raised, per table and kind (baccarat.server.integrity_watch)",
            ["table", "kind"],
            registry=self.registry,
        )
        self.feed_outbox = Gauge(
            "baccarat_feed_outbox",
            "Broadcasts waiting for Redis (non-zero while Redis is away)",
            registry=self.registry,
        )

    def listen(self, host: str, port: int) -> Listener:
        """Serve these metrics at ``http://host:port/`` (any path) from a thread of their own;
        ``shutdown()`` then ``server_close()`` the result to stop."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return server

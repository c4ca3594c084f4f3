"""Prometheus metrics of one server (its own registry, so several apps can share a process)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

__all__ = ["Metrics"]


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
            "Full garbage collections, run between rounds (baccarat.server.collector).",
            buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
            registry=self.registry,
        )
        self.clients = Gauge(
            "baccarat_ws_clients",
            "WebSocket clients connected.",
            ["table"],
            registry=self.registry,
        )

"""Installing the server's protections on the app: the allowed host names (Starlette's
``TrustedHostMiddleware``, with ``--allowed-hosts``), HTTP hygiene (``hygiene``), the guard of
logins and guests (``guard``), and the metrics listener (``metrics``), started and stopped
with the app's lifespan."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware

from baccarat.server.config import Settings
from baccarat.server.guard import Guard
from baccarat.server.hygiene import Hygiene
from baccarat.server.metrics import Listener, Metrics

__all__ = ["Protections"]


class Protections:
    """What ``create_app`` installs; ``start``/``stop`` run in its lifespan."""

    def __init__(self, app: FastAPI, config: Settings, metrics: Metrics) -> None:
        self.metrics_address = config.metrics_address
        self.metrics = metrics
        self.guard = Guard(
            config.rate_limits,
            metrics,
            password_workers=config.password_workers or None,
            password_cpu_share=config.password_cpu_share,
        )
        self.listener: Listener | None = None
        app.state.guard = self.guard
        # An empty token (``BACCARAT_METRICS_TOKEN=``) opens nothing.
        app.state.metrics_token = config.metrics_token or None
        # The page's policy lets it play the studio tables' video (and no other media).
        streams = [table.stream_url for table in config.tables if table.stream_url]
        app.add_middleware(Hygiene, max_body_bytes=config.max_body_bytes, streams=streams)
        if config.host_names is not None:  # around the hygiene and the bets: answered first
            app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(config.host_names))

    def start(self) -> None:
        """Open the metrics listener, if one is configured."""
        if self.metrics_address is not None:
            self.listener = self.metrics.listen(*self.metrics_address)

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.shutdown()
            self.listener.server_close()
            self.listener = None
        self.guard.close()

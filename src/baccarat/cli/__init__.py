"""The ``baccarat`` command. Each sub-command lives in its own module and registers on ``app``."""

from __future__ import annotations

from baccarat.cli import audit, deal, fair, keys, ledger, odds, roads, rules, serve, simulate  # noqa: F401  (registers the commands)
from baccarat.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the console script."""
    app()

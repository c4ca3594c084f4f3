"""The ``baccarat`` command. Each sub-command lives in its own module and registers on ``app``.

Every command module imports only the core, Typer and Rich at load time: what a command needs
beyond that (the store, the server, the analysis arrays) it imports when it runs.
"""

from __future__ import annotations

from baccarat.cli import (  # noqa: F401  (registers the commands)
    admin,
    audit,
    deal,
    fair,
    keys,
    ledger,
    odds,
    operators,
    reconcile,
    roads,
    rules,
    serve,
    simulate,
    studio,
    studio_tokens,
    wallet,
)
from baccarat.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the console script and of ``python -m baccarat``."""
    # One name for both ways in: help, errors and shell completion all say ``baccarat``.
    app(prog_name="baccarat")

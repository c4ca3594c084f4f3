"""The Typer application object and the helpers every command shares."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

__all__ = ["USAGE_ERROR", "app", "console", "fail"]

#: Exit code for bad input (a usage error), as Click uses it.
USAGE_ERROR = 2

app = typer.Typer(
    name="baccarat",
    help="Punto banco baccarat: rules, fair shoes, roads, odds, simulation and a live table.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """Print a one-line error to stderr and exit (2 for bad input)."""
    # Plain echo, not Rich: an error is one line whatever the terminal width.
    typer.echo(f"baccarat: error: {message}", err=True)
    raise typer.Exit(code)

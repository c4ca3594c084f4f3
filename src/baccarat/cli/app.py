"""The Typer application object and the helpers every command shares.

The commands of the rules library (``deal``, ``rules``, ``shoe``, ``verify``, ``roads``) run on
a plain install. The others import what they need when they run; a command whose extra is not
installed says so in one line and exits with 2:

>>> needed_extra("sqlalchemy", "ledger"), needed_extra("numpy", "serve"), needed_extra("numpy", "odds")
('server', 'server', 'sim')
>>> needed_extra("psycopg", "serve"), needed_extra("matplotlib.pyplot", "simulate")
('postgres', 'plot')
>>> needed_extra("serial", "studio"), needed_extra("sqlalchemy", "studio")
('device', 'server')
>>> needed_extra("baccarat.nowhere", "deal") is None
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

__all__ = ["EXTRAS", "USAGE_ERROR", "app", "console", "fail", "needed_extra"]

#: Exit code for bad input (a usage error), as Click uses it.
USAGE_ERROR = 2

#: The modules each extra of the package brings (its ``[project.optional-dependencies]``);
#: not pydantic, which Typer itself needs.
EXTRAS: dict[str, frozenset[str]] = {
    "server": frozenset(
        {
            "alembic",
            "argon2",
            "cryptography",
            "fastapi",
            "fastapi_offline",
            "httpx",
            "limits",
            "numpy",
            "platformdirs",
            "prometheus_client",
            "pydantic_settings",
            "redis",
            "sqlalchemy",
            "starlette",
            "uvicorn",
        }
    ),
    "postgres": frozenset({"psycopg"}),
    "sim": frozenset({"numpy", "numba"}),
    "plot": frozenset({"matplotlib"}),
    "cluster": frozenset({"dask", "distributed"}),
    "device": frozenset({"httpx", "serial"}),
}
#: The extra a command needs whole, which decides for a module that more than one extra brings.
_COMMAND_EXTRA = {
    "serve": "server",
    "ledger": "server",
    "keys": "server",
    "audit": "server",
    "admin": "server",
    "wallet": "server",
    # httpx is in the server extra too (provider mode's wallet calls); a studio device's is this.
    "studio": "device",
    "operator": "server",
    "odds": "sim",
    "simulate": "sim",
}


def needed_extra(module: str | None, command: str | None) -> str | None:
    """The extra that brings the missing ``module`` to ``command``, or None if none does."""
    top = (module or "").partition(".")[0]
    own = _COMMAND_EXTRA.get(command or "")
    if own is not None and top in EXTRAS[own]:
        return own
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


class _Commands(TyperGroup):
    """The root group: a command that imports a module of a missing extra fails in one line,
    and so does a usage error of any command (a bad option value, an unknown option, a missing
    argument), where Click and Typer would draw a box of several lines."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        given = (args, prog_name, complete_var, False, windows_expand_args)
        if not standalone_mode:
            return super().main(*given, **extra)
        try:
            outcome = super().main(*given, **extra)
        except typer.Abort:
            typer.echo("Aborted.", err=True)
            sys.exit(1)
        except typer.TyperException as error:  # Click's errors, as Typer vendors them
            message = error.format_message() if hasattr(error, "format_message") else str(error)
            context = getattr(error, "ctx", None)
            code = getattr(error, "exit_code", USAGE_ERROR)
            where = f" (see '{context.command_path} --help')" if context is not None else ""
            if message:  # none when the help was shown instead (a group called bare)
                line = f"{message}{where if code == USAGE_ERROR else ''}"
                typer.echo(f"baccarat: error: {line}", err=True)
            sys.exit(code)
        # Without standalone mode Click answers an exit (typer.Exit) with its code.
        sys.exit(outcome if isinstance(outcome, int) else 0)

    # ``ctx`` is Click's context, which recent Typer versions vendor under a private module.
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as error:
            command = ctx.invoked_subcommand
            extra = needed_extra(error.name, command)
            if extra is None:
                raise
            fail(f"baccarat {command} needs the {extra} extra: pip install 'baccarat[{extra}]'")


app = typer.Typer(
    name="baccarat",
    cls=_Commands,
    help="Punto banco baccarat: rules, fair shoes, roads, odds, simulation and a live table.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # only when asked: it is slow to import

        typer.echo(f"baccarat {version('baccarat')}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the installed version and exit.",
        ),
    ] = False,
) -> None:
    # Options of the command itself; each sub-command registers on ``app`` in its own module.
    pass


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """Print a one-line error to stderr and exit (2 for bad input)."""
    # Plain echo, not Rich: an error is one line whatever the terminal width.
    typer.echo(f"baccarat: error: {message}", err=True)
    raise typer.Exit(code)

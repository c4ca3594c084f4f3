"""``baccarat ledger check``: verify the table service's ledger and bets (exit 0 all hold, 1 not)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from baccarat.cli.app import app, console, fail
from baccarat.responsible.money import format_money

if TYPE_CHECKING:
    from baccarat.store import Database

ledger_app = typer.Typer(help="The ledger of the live table service.", no_args_is_help=True)
app.add_typer(ledger_app, name="ledger")


def _open_existing(url: str) -> Database:
    # Loaded here: SQLAlchemy and the store are not needed by the other commands.
    from sqlalchemy.engine import make_url

    from baccarat.store import Database, StoreError, database_url
    from baccarat.store.migrate import current_revision

    try:
        full = database_url(url)
        parsed = make_url(full)
        if parsed.get_backend_name() == "sqlite":
            path = parsed.database or ""
            if not path or path == ":memory:" or not Path(path).is_file():
                fail(f"no database file at {path or url!r}")
        database = Database(full)
        database.ping()
        revision = current_revision(database)
    except StoreError as error:
        fail(str(error))
    except typer.Exit:
        raise
    except Exception as error:  # an unreadable file or a driver error, in one line
        fail(f"cannot read the database {url!r}: {str(error).strip().splitlines()[0]}")
    if revision is None:
        fail(f"{url!r} is not a baccarat database (no schema)")
    return database


@ledger_app.command("check")
def check_command(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check that every transaction and the whole ledger sum to zero, no player is negative,
    every cached balance matches its entries, and every bet ends in exactly one outcome."""
    from baccarat.store import check_ledger, default_database_url

    database = _open_existing(db or default_database_url())
    try:
        with database.read() as connection:
            report = check_ledger(connection)
    except Exception as error:  # a database the checks cannot even read: a failure, in one line
        console.print(f"[red]FAIL[/] the ledger cannot be checked: {str(error).strip()[:300]}")
        raise typer.Exit(1) from None
    finally:
        database.dispose()
    problems = report.problems
    if as_json:
        figures = {
            "ok": report.ok,
            "transactions": report.transactions,
            "entries": report.entries,
            "accounts": report.accounts,
            "total": report.total,
            "players": report.players,
            "player_money": report.player_money,
            "house": report.house,
            "in_play": report.in_play,
            # The demo part of the figures above: guests' demo money, kept apart.
            "demo": {
                "players": report.demo_players,
                "money": report.demo_money,
                "in_play": report.demo_in_play,
                "house": report.demo_house,
                "bank": report.demo_bank,
            },
            "bets": report.bets,
            "outcomes": report.outcomes,
            "currency": report.currency,
            "problems": problems,
        }
        typer.echo(json.dumps(figures, sort_keys=True))
    else:
        table = Table(title="Ledger", title_justify="left", show_header=False)
        table.add_column("figure")
        table.add_column("value", justify="right")
        money = partial(format_money, currency=report.currency)
        rows = [
            ("transactions", str(report.transactions)),
            ("entries", str(report.entries)),
            ("accounts", str(report.accounts)),
            ("sum of all accounts", money(report.total)),
            ("players", str(report.players)),
            ("held by players", money(report.player_money)),
            ("house result", money(report.house)),
            ("stakes in play", money(report.in_play)),
            ("guests (demo money)", str(report.demo_players)),
            ("held by guests (demo)", money(report.demo_money)),
            ("house result on demo play", money(report.demo_house)),
            ("demo stakes in play", money(report.demo_in_play)),
            ("bets", str(report.bets)),
        ]
        rows += [(f"bets {kind}", str(n)) for kind, n in sorted(report.outcomes.items())]
        for name, value in rows:
            table.add_row(name, value)
        console.print(table)
        for name, items in problems.items():
            shown = ", ".join(str(item) for item in items[:5])
            more = f" (and {len(items) - 5} more)" if len(items) > 5 else ""
            console.print(f"[red]FAIL[/] {name}: {len(items)}: {shown}{more}")
        if report.ok:
            console.print("[green]OK[/] every invariant holds")
    if not report.ok:
        raise typer.Exit(1)

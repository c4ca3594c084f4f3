"""``baccarat wallet reconcile``: an operator's wallet calls over a period, reconciled
(``baccarat.store.reconcile``): the orphans, totals per round and player, and the check of the
ledger's ``wallet:{operator}`` account. Rich tables for people, ``--json`` for machines (the
back office's ``ReconciliationView``, every item). Exit 0 when clean, 1 when there are orphans
or the ledger disagrees, 2 for bad input.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from baccarat.cli.app import console, fail
from baccarat.cli.ledger import _open_existing
from baccarat.cli.wallet import wallet_app
from baccarat.responsible.money import format_money
from baccarat.rulesets import CURRENCIES

if TYPE_CHECKING:
    from baccarat.store.reconcile import Reconciliation, Totals
    from baccarat.store.wallet_calls import WalletCall

__all__ = ["reconcile_command"]

Money = Callable[[int], str]
#: The columns that hold ids (or names), which may fold.
_IDS = frozenset({"player", "external", "table", "debit", "call"})
#: Orphans shown in the terminal (``--json`` has them all).
_SHOWN = 50


@wallet_app.command("reconcile")
def reconcile_command(
    operator: Annotated[str, typer.Option("--operator", help="The operator's id.")],
    since: Annotated[
        str,
        typer.Option(
            help="Start of the period: a UTC day (2026-12-01) or time (2026-12-01T10:00)."
        ),
    ],
    until: Annotated[
        str | None, typer.Option(help="End of the period, not included (default: now).")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
    calls: Annotated[
        bool, typer.Option("--calls", help="Also list every debit with the call that ended it.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print everything as JSON.")] = False,
) -> None:
    """Reconcile an operator's wallet calls over [since, until); exit 1 on orphans.

    Every debit with its one credit or rollback, the orphans (a debit never ended, an unknown
    debit without rollback, a credit or rollback still queued or failed, a debit pending past
    its timeout), totals per round and player, and the ledger's wallet:OPERATOR movements
    against the calls.

    Exit 0 when clean, 1 when orphans exist or the ledger disagrees, 2 for bad input (an
    unknown operator, a bad date, an unreadable database).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from baccarat.server.admin_operator_models import instant_ms, reconciliation_view
    from baccarat.store import db_now, default_database_url
    from baccarat.store.reconcile import reconcile

    try:
        first = instant_ms(since)
        last = int(time.time() * 1000) if until is None else instant_ms(until)
    except ValueError as error:
        fail(f"--since/--until: {error}")
    if first >= last:
        fail("--since must be before --until")
    database = _open_existing(db or default_database_url())
    try:
        with database.read() as connection:
            found = reconcile(
                connection, operator, since_ms=first, until_ms=last, now_ms=db_now(connection)
            )
    except SQLAlchemyError as error:  # a database from before provider mode, in one line
        fail(f"cannot read the wallet calls: {str(error).strip().splitlines()[0]}")
    finally:
        database.dispose()
    if found is None:
        fail(f"there is no operator {operator!r} (see 'baccarat operator list')")
    if as_json:
        typer.echo(reconciliation_view(found).model_dump_json())
    else:
        _print(found, calls)
    if not found.clean:
        raise typer.Exit(1)


def _money(currency: str) -> Money:
    # A currency the house does not know is written without a symbol, never refused.
    known = currency if currency in CURRENCIES else None
    return lambda amount: format_money(amount, known)


def _totals_row(totals: Totals, money: Money) -> list[str]:
    return [
        str(totals.debits),
        money(totals.debited),
        money(totals.credited),
        money(totals.rolled_back),
        money(totals.net),
    ]


def _table(title: str, *names: str, right: int = 5) -> Table:
    """Columns ``names``, the last ``right`` of them right-aligned. In a narrow terminal an id
    folds onto more lines (never cut: it is what one looks up); a word or an amount never
    breaks."""
    table = Table(title=title, title_justify="left")
    for i, name in enumerate(names):
        on_right = i >= len(names) - right
        table.add_column(
            name, justify="right" if on_right else "left", overflow="fold", no_wrap=name not in _IDS
        )
    return table


def _show(table: Table) -> None:
    """Print ``table``, each column but the ids as wide as its widest cell: Rich crops what
    does not fit, and an amount must never lose a digit."""
    for column in table.columns:
        if str(column.header) not in _IDS:
            cells = [str(column.header), *(str(cell) for cell in column.cells)]
            column.min_width = max(map(len, cells))
    console.print(table)


def _call(call: WalletCall | None, money: Money) -> list[str]:
    if call is None:
        return ["–", "", ""]
    return [call.kind, money(call.amount), call.state]


def _print(found: Reconciliation, calls: bool) -> None:
    from baccarat.server.clock import iso_utc

    money = _money(found.operator.currency)
    figures = ("debits", "debited", "credited", "rolled_back", "net")
    console.print(
        f"Operator [bold]{found.operator.id}[/] ({found.operator.currency}), "
        f"{iso_utc(found.since_ms)} to {iso_utc(found.until_ms)}"
    )
    per_round = _table("Per round", "round", "table", *figures)
    for round_id, totals in found.rounds.items():
        table_id = found.table_ids.get(round_id) or ""
        per_round.add_row(str(round_id or "–"), table_id, *_totals_row(totals, money))
    per_round.add_section()
    per_round.add_row("all", "", *_totals_row(found.total, money))
    _show(per_round)
    per_player = _table("Per player", "player", "external", *figures)
    for player, totals in found.players.items():
        external = found.external_ids.get(player, "")
        per_player.add_row(player, external, *_totals_row(totals, money))
    _show(per_player)
    if calls:
        names = ("debit", "round", "amount", "state", "end", "amount", "state")
        listed = _table("Debits", *names, right=0)
        for line in found.lines:
            debit = line.debit
            listed.add_row(
                debit.id, str(debit.round_id or "–"), money(debit.amount), debit.state,
                *_call(line.end, money),
            )  # fmt: skip
        _show(listed)
    if found.orphans:
        # The call's debit and player, and the wallet's answer, are in --json.
        orphans = _table("Orphans", "kind", "call", "round", "amount", "state", "error", right=0)
        for orphan in found.orphans[:_SHOWN]:
            call = orphan.call
            orphans.add_row(
                orphan.kind, call.id, str(call.round_id or "–"), money(call.amount), call.state,
                call.last_error or "",
            )  # fmt: skip
        _show(orphans)
        more = len(found.orphans) - _SHOWN
        if more > 0:
            console.print(f"(and {more} more: --json lists them all)")
    ledger = found.ledger
    verdict = "[green]agrees[/]" if ledger.ok else "[red]DISAGREES[/]"
    console.print(
        f"Ledger wallet:{found.operator.id} moved {money(ledger.ledger)}; the calls say "
        f"{money(ledger.expected)}: {verdict}"
    )
    if found.clean:
        console.print("[green]OK[/] every debit is ended and the ledger agrees")
    else:
        console.print(
            f"[red]FAIL[/] {len(found.orphans)} orphan(s)"
            + ("" if ledger.ok else ", the ledger disagrees")
        )

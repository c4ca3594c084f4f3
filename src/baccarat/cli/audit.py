"""``baccarat audit verify``: check the table service's hash-chained audit log.

Exit 0 when the chain holds, 1 with each problem printed when a record was changed,
removed, inserted or moved, 2 for a database that cannot be read.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from baccarat.cli.app import app, console, fail
from baccarat.cli.ledger import _open_existing

audit_app = typer.Typer(help="The audit log of the live table service.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def verify_command(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL [default: the SQLite file of 'baccarat serve']."),
    ] = None,
    anchor: Annotated[
        str | None,
        typer.Option(help="A head hash kept outside the database: a record must still match it."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Recompute every record's hash and link; print each problem (exit 1) or OK (exit 0)."""
    from sqlalchemy.exc import SQLAlchemyError

    from baccarat.audit import head_hash
    from baccarat.store import default_database_url
    from baccarat.store.audit_log import audit_rows, verify_audit_log

    database = _open_existing(db or default_database_url())
    try:
        with database.read() as connection:
            rows = audit_rows(connection)
            problems = verify_audit_log(connection, anchor)
    except SQLAlchemyError:
        fail("this database has no audit log (start 'baccarat serve' on it once to upgrade it)")
    finally:
        database.dispose()
    head = rows[-1]["hash"] if rows else head_hash([])
    if as_json:
        body = {
            "ok": not problems,
            "records": len(rows),
            "head_hash": head,
            "problems": [{"seq": p.seq, "kind": p.kind, "message": p.message} for p in problems],
        }
        typer.echo(json.dumps(body, sort_keys=True))
    else:
        for problem in problems:
            console.print(f"[red]FAIL[/] {problem.kind}: {problem.message}", highlight=False)
        if not problems:
            console.print(
                f"[green]OK[/] {len(rows)} records, the chain holds; head hash {head}",
                highlight=False,
            )
    if problems:
        raise typer.Exit(1)

"""``baccarat audit verify``: check the table service's hash-chained audit log.

Exit 0 when the chain holds, 1 with each problem printed when a record was changed,
removed, inserted or moved, 2 for a database that cannot be read. ``--anchor`` takes a head
hash kept earlier, or the anchor file ``baccarat serve --audit-anchor`` appends to: then
records removed from the end of the log are found too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baccarat.cli.app import app, console, fail
from baccarat.cli.ledger import _open_existing

if TYPE_CHECKING:
    from baccarat.audit import Anchor

audit_app = typer.Typer(help="The audit log of the live table service.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def verify_command(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
    anchor: Annotated[
        str | None,
        typer.Option(
            help="A head hash kept outside the database, or an anchor FILE of "
            "'baccarat serve --audit-anchor': every anchored record must still be there."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Recompute every record's hash and link; print each problem (exit 1) or OK (exit 0)."""
    from sqlalchemy.exc import SQLAlchemyError

    from baccarat.audit import check_anchors, head_hash
    from baccarat.store import default_database_url
    from baccarat.store.audit_log import audit_rows, verify_audit_log

    anchors: list[Anchor] = []
    if anchor is not None and not re.fullmatch(r"[0-9a-f]{64}", anchor):
        anchors = _read_anchor_file(Path(anchor))
        anchor = None
    database = _open_existing(db or default_database_url())
    try:
        with database.read() as connection:
            rows = audit_rows(connection)
            problems = verify_audit_log(connection, anchor)
            problems += check_anchors(rows, anchors)
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
            "anchors": len(anchors),
            "problems": [{"seq": p.seq, "kind": p.kind, "message": p.message} for p in problems],
        }
        typer.echo(json.dumps(body, sort_keys=True))
    else:
        for problem in problems:
            console.print(f"[red]FAIL[/] {problem.kind}: {problem.message}", highlight=False)
        if not problems:
            against = f" and reaches its {len(anchors)} anchors" if anchors else ""
            console.print(
                f"[green]OK[/] {len(rows)} records, the chain holds{against}; head hash {head}",
                highlight=False,
            )
    if problems:
        raise typer.Exit(1)


def _read_anchor_file(path: Path) -> list[Anchor]:
    from baccarat.audit import AuditError, parse_anchors

    try:
        return parse_anchors(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"--anchor: no anchor file at {path} (and not a 64-hex-digit head hash)")
    except (OSError, UnicodeDecodeError) as error:
        fail(f"--anchor: cannot read {path}: {error}")
    except AuditError as error:
        fail(f"--anchor: {path}: {error}")

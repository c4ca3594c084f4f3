"""``baccarat studio device-token --table T``: a studio shoe's token, printed once.

Only its SHA-256 is stored; the token pushes cards to its one table and nothing else.
``--revoke ID`` revokes one. Both are audited (actor ``system:cli``). The database is the
one of ``baccarat serve`` unless ``--db`` says otherwise; bad input is one line, exit 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from baccarat.cli.app import console, fail
from baccarat.cli.studio import studio_app


@studio_app.command("device-token")
def device_token_command(
    table: Annotated[str, typer.Option(help="The studio table, e.g. standard-studio.")],
    label: Annotated[str, typer.Option(help="What the device is, e.g. 'shoe 1'.")] = "shoe",
    revoke: Annotated[
        str | None, typer.Option(help="Revoke the token with this id instead.")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
) -> None:
    """Issue a device token for a studio table (printed once), or revoke one."""
    from baccarat.cli.serve import open_database
    from baccarat.store import db_now, default_database_url
    from baccarat.store.audit_log import append_audit
    from baccarat.store.device_tokens import issue_device_token, revoke_device_token

    if not table.endswith("-studio") or len(table) > 64:
        fail(f"--table must name a studio table (RULESET-studio), not {table!r}")
    if not 1 <= len(label) <= 80 or not label.isprintable():
        fail("--label must be 1 to 80 printable characters")
    database = open_database(db or default_database_url())  # migrated, or one line
    try:
        with database.write() as connection:
            now = db_now(connection)
            if revoke is not None:
                revoked = revoke_device_token(connection, revoke, now)
                if revoked is None or revoked.table_id != table:
                    fail(f"no live device token {revoke!r} at table {table!r}")
                details = {"table": table, "token_id": revoke}
                append_audit(connection, now, "system:cli", "device_token_revoke", details)
                console.print(f"revoked device token {revoke} of {table}")
                return
            row, token = issue_device_token(
                connection, table_id=table, label=label, by="system:cli", at=now
            )
            details = {"table": table, "token_id": row.id, "label": label}
            append_audit(connection, now, "system:cli", "device_token_issue", details)
    finally:
        database.dispose()
    console.print(f"device token {row.id} for {table} ({label}); shown once, keep it secret:")
    print(token)

"""``baccarat admin create-user NAME --role ROLE``: a member of staff for the admin API.

The password is asked twice on the terminal (hidden), or read as one line from standard
input with ``--password-stdin`` (for scripts); only its argon2id hash is stored. The
database is created and migrated if it is new, so the first admin can exist before the
first ``baccarat serve``. The creation is in the audit chain (actor ``system:cli``). Bad
input (a role, a name taken, a weak password) is one line and exit 2.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from baccarat.cli.app import app, console, fail

admin_app = typer.Typer(help="Staff of the live table service.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")

_ROLES = ("operator", "auditor", "admin", "dealer")


@admin_app.command("create-user")
def create_user_command(
    name: Annotated[str, typer.Argument(help="The staff username (3-32 of a-z, 0-9, . _ -).")],
    role: Annotated[
        str,
        typer.Option(
            help="operator (pit boss, a studio supervisor), auditor (read-only), admin, or dealer (a studio table's console)."
        ),
    ],
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input.")
    ] = False,
) -> None:
    """Create a member of staff with a role; the password is prompted (or read from stdin)."""
    if role not in _ROLES:
        fail(f"--role must be one of {', '.join(_ROLES)}, not {role!r}")
    from baccarat.passwords import PasswordError, check_password, hash_password
    from baccarat.store import Database, StoreError, db_now, default_database_url, upgrade
    from baccarat.store.accounts import normalize_username
    from baccarat.store.audit_log import append_audit
    from baccarat.store.staff import StaffNameTakenError, create_staff

    try:
        username = normalize_username(name)
    except ValueError as error:
        fail(str(error))
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        check_password(password, username=username)
    except PasswordError as error:
        fail(str(error))
    stored = hash_password(password)
    try:
        database = Database(db or default_database_url())
        upgrade(database)
    except StoreError as error:
        fail(str(error))
    except Exception as error:  # an unreachable server or a bad URL, in one line
        fail(f"cannot open the database: {str(error).strip().splitlines()[0]}")
    try:
        with database.write() as connection:
            now = db_now(connection)
            member = create_staff(connection, username, role, stored, now)
            details = {"username": member.username, "new_role": role}
            append_audit(connection, now, "system:cli", "staff_create", details)
    except StaffNameTakenError as error:
        fail(str(error))
    finally:
        database.dispose()
    console.print(f"created {member.role} {member.username!r}")

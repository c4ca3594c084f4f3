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


def _password(username: str, password_stdin: bool) -> str:
    """A new password, prompted twice (or one line of stdin), checked; its argon2id hash."""
    from baccarat.passwords import PasswordError, check_password, hash_password

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        check_password(password, username=username)
    except PasswordError as error:
        fail(str(error))
    return hash_password(password)


DbOption = Annotated[
    str | None, typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve').")
]


@admin_app.command("list-users")
def list_users_command(db: DbOption = None) -> None:
    """List the members of staff: username, role, created, disabled."""
    from rich.table import Table

    from baccarat.cli.serve import open_database
    from baccarat.server.clock import iso_utc
    from baccarat.store import default_database_url
    from baccarat.store.staff import list_staff

    database = open_database(db or default_database_url())
    try:
        with database.read() as connection:
            members = list_staff(connection)
    finally:
        database.dispose()
    table = Table("username", "role", "created (UTC)", "disabled (UTC)")
    for member in members:
        disabled = "" if member.disabled_at is None else iso_utc(member.disabled_at)
        table.add_row(member.username, member.role, iso_utc(member.created_at), disabled)
    console.print(table if members else "no member of staff yet")


@admin_app.command("disable-user")
def disable_user_command(
    name: Annotated[str, typer.Argument(help="The staff username.")], db: DbOption = None
) -> None:
    """Disable a member of staff: they cannot log in, and their sessions end (audited)."""
    from baccarat.cli.serve import open_database
    from baccarat.store import db_now, default_database_url
    from baccarat.store.audit_log import append_audit
    from baccarat.store.staff import disable_staff, find_staff

    database = open_database(db or default_database_url())
    try:
        with database.write() as connection:
            member = find_staff(connection, name)
            if member is None:
                fail(f"there is no member of staff {name!r}")
            now = db_now(connection)
            if not disable_staff(connection, member.id, now):
                fail(f"{member.username!r} is disabled already")
            details = {"username": member.username, "role": member.role}
            append_audit(connection, now, "system:cli", "staff_disable", details)
    finally:
        database.dispose()
    console.print(f"disabled {member.role} {member.username!r}; their sessions have ended")


@admin_app.command("reset-password")
def reset_password_command(
    name: Annotated[str, typer.Argument(help="The staff username.")],
    db: DbOption = None,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input.")
    ] = False,
) -> None:
    """Give a member of staff a new password (prompted, or from stdin); their sessions end
    (audited)."""
    from baccarat.cli.serve import open_database
    from baccarat.store import db_now, default_database_url
    from baccarat.store.audit_log import append_audit
    from baccarat.store.staff import find_staff, set_staff_password

    database = open_database(db or default_database_url())
    try:
        with database.read() as connection:
            member = find_staff(connection, name)
        if member is None:
            fail(f"there is no member of staff {name!r}")
        stored = _password(member.username, password_stdin)
        with database.write() as connection:
            now = db_now(connection)
            set_staff_password(connection, member.id, stored, now)
            details = {"username": member.username, "role": member.role}
            append_audit(connection, now, "system:cli", "staff_password_reset", details)
    finally:
        database.dispose()
    console.print(f"a new password for {member.username!r}; their sessions have ended")

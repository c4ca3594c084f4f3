"""``baccarat operator add|rotate|list|disable``: the casino operators of provider mode.

An operator launches its players here and holds their money in its own seamless wallet
(``docs/wallet.md``). ``add`` and ``rotate`` print the operator's new shared secret once (64 hex
digits): only its sealed form is stored, under the seed keys (``BACCARAT_SEED_KEY`` or the key
file, as ``baccarat serve`` reads them), so give the same keys to the server. Every change is in
the audit chain (actor ``system:cli``). Bad input is one line and exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baccarat.cli.app import app, console, fail

if TYPE_CHECKING:
    from baccarat.store import Database
    from baccarat.store.seal import SeedVault

operator_app = typer.Typer(
    help="Casino operators whose players play with the operator's wallet.", no_args_is_help=True
)
app.add_typer(operator_app, name="operator")

DbOption = Annotated[
    str | None, typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve').")
]
KeyFileOption = Annotated[
    Path | None,
    typer.Option(
        help="The seed key file sealing the secrets (default: $BACCARAT_SEED_KEY, else "
        "'seed-keys' in the user config directory)."
    ),
]
IdArgument = Annotated[str, typer.Argument(help="The operator's id (1-40 of a-z, 0-9, _ -).")]


def _database(db: str | None) -> Database:
    from baccarat.cli.serve import open_database
    from baccarat.store import default_database_url

    return open_database(db or default_database_url())


def _vault(key_file: Path | None) -> SeedVault:
    from baccarat.store.keyfile import KeySource
    from baccarat.store.seal import SealError

    try:
        return KeySource(key_file).vault()
    except SealError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot create the seed key file: {error}")


@operator_app.command("add")
def add_command(
    operator_id: IdArgument,
    name: Annotated[str, typer.Option(help="The name its players see, e.g. 'Kasino Nusantara'.")],
    wallet_url: Annotated[
        str, typer.Option(help="The wallet's base URL: calls go to {url}/debit and so on.")
    ],
    currency: Annotated[str, typer.Option(help="The one currency it plays in (ISO 4217).")],
    timeout_ms: Annotated[int, typer.Option(help="A wallet call's timeout (ms).")] = 2000,
    db: DbOption = None,
    seed_key_file: KeyFileOption = None,
) -> None:
    """Add an operator and print its shared secret (shown once: keep it)."""
    from baccarat.store import db_now
    from baccarat.store.audit_log import append_audit
    from baccarat.store.operators import OperatorError, add_operator, check_operator_id

    try:
        check_operator_id(operator_id)
    except OperatorError as error:
        fail(str(error))
    vault = _vault(seed_key_file)
    database = _database(db)
    try:
        with database.write() as connection:
            now = db_now(connection)
            secret = add_operator(
                connection,
                vault,
                operator_id=operator_id,
                name=name,
                wallet_url=wallet_url,
                currency=currency,
                timeout_ms=timeout_ms,
                at=now,
            )
            details = {"operator_id": operator_id, "wallet_url": wallet_url.strip()}
            append_audit(connection, now, "system:cli", "operator_add", details)
    except OperatorError as error:
        fail(str(error))
    finally:
        database.dispose()
    console.print(f"added operator {operator_id!r}; its shared secret (shown once):")
    typer.echo(secret)


@operator_app.command("rotate")
def rotate_command(
    operator_id: IdArgument,
    grace_hours: Annotated[
        float,
        typer.Option(help="How long the old secret is still accepted (hours; 0: not at all)."),
    ] = 24,
    db: DbOption = None,
    seed_key_file: KeyFileOption = None,
) -> None:
    """Give an operator a new shared secret, printed once; the old one works for the grace."""
    from baccarat.server.clock import iso_utc
    from baccarat.store import db_now
    from baccarat.store.audit_log import append_audit
    from baccarat.store.operators import OperatorError, rotate_secret

    if not 0 <= grace_hours <= 24 * 30:
        fail(f"--grace-hours must be 0 to 720, not {grace_hours:g}")
    grace_ms = round(grace_hours * 3_600_000)
    vault = _vault(seed_key_file)
    database = _database(db)
    try:
        with database.write() as connection:
            now = db_now(connection)
            secret = rotate_secret(connection, vault, operator_id, now, grace_ms)
            details = {"operator_id": operator_id, "grace_ms": grace_ms}
            append_audit(connection, now, "system:cli", "operator_rotate", details)
    except OperatorError as error:
        fail(str(error))
    finally:
        database.dispose()
    until = f"until {iso_utc(now + grace_ms)}" if grace_ms else "no longer"
    console.print(f"a new secret for {operator_id!r} (the old one is accepted {until}):")
    typer.echo(secret)


@operator_app.command("list")
def list_command(db: DbOption = None) -> None:
    """List the operators: id, name, currency, wallet URL, timeout, created, disabled."""
    from rich.table import Table

    from baccarat.server.clock import iso_utc
    from baccarat.store.operators import list_operators

    database = _database(db)
    try:
        with database.read() as connection:
            found = list_operators(connection)
    finally:
        database.dispose()
    table = Table("id", "name", "currency", "wallet URL", "timeout", "created (UTC)", "disabled")
    for operator in found:
        disabled = "" if operator.disabled_at is None else iso_utc(operator.disabled_at)
        table.add_row(
            operator.id,
            operator.name,
            operator.currency,
            operator.wallet_url,
            f"{operator.timeout_ms} ms",
            iso_utc(operator.created_at),
            disabled,
        )
    console.print(table if found else "no operator yet")


@operator_app.command("disable")
def disable_command(operator_id: IdArgument, db: DbOption = None) -> None:
    """Disable an operator: no more launches or wallet calls; its players' sessions end."""
    from baccarat.store import db_now
    from baccarat.store.audit_log import append_audit
    from baccarat.store.operators import OperatorError, disable_operator

    database = _database(db)
    try:
        with database.write() as connection:
            now = db_now(connection)
            ended = disable_operator(connection, operator_id, now)
            details = {"operator_id": operator_id, "sessions_ended": ended}
            append_audit(connection, now, "system:cli", "operator_disable", details)
    except OperatorError as error:
        fail(str(error))
    finally:
        database.dispose()
    console.print(f"disabled operator {operator_id!r}; {ended} session(s) of its players ended")

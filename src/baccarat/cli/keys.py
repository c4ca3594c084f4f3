"""``baccarat keys rotate``: a new key for the shoe seeds sealed at rest, and every shoe in play
sealed again under it (``docs/operations.md``, "Seed keys")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from baccarat.cli.app import app, console, fail
from baccarat.cli.ledger import _open_existing

keys_app = typer.Typer(help="The keys sealing shoe seeds at rest.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")


@keys_app.command("rotate")
def rotate_command(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: the SQLite file of 'baccarat serve')."),
    ] = None,
    seed_key_file: Annotated[
        Path | None,
        typer.Option(help="The key file (default: 'seed-keys' in the user config directory)."),
    ] = None,
    retire: Annotated[
        bool,
        typer.Option(
            "--retire", help="Then drop from the key file every old key no shoe in play uses."
        ),
    ] = False,
) -> None:
    """Add a fresh key to the key file and seal every shoe in play with it.

    With $BACCARAT_SEED_KEY set, the key file is left alone: put the new key last in the
    variable, run this to seal the shoes in play with it, then restart the server.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from baccarat.store import default_database_url
    from baccarat.store.keyfile import KeySource, add_key, keep_keys
    from baccarat.store.seal import SealError, SeedVault, key_id
    from baccarat.store.shoes import reseal_open_shoes

    source = KeySource(seed_key_file)
    database = _open_existing(db or default_database_url())
    try:
        if source.env_value is None:
            add_key(source.path)
        vault = SeedVault(source.load)
        with database.write() as connection:
            counts = reseal_open_shoes(connection, vault)
        keys = vault.keys()
        dropped: list[str] = []
        if retire and source.env_value is None:
            kept = [k for k in keys.keys[:-1] if key_id(k) in counts] + [keys.keys[-1]]
            dropped = [key_id(k) for k in keys.keys if k not in kept]
            keep_keys(source.path, kept)
    except SealError as error:
        fail(str(error))
    except SQLAlchemyError:
        fail("this database has no shoes table (start 'baccarat serve' on it once)")
    except OSError as error:
        fail(f"cannot write the seed key file: {error}")
    finally:
        database.dispose()
    sealed = counts.get(keys.newest_id, 0)
    console.print(
        f"[green]OK[/] key {keys.newest_id} ({source.where}) now seals new shoes and the "
        f"{sealed} shoe(s) in play",
        highlight=False,
    )
    if dropped:
        console.print(f"retired keys: {', '.join(dropped)}", highlight=False)
    elif len(keys.keys) > 1 and source.env_value is None:
        console.print(
            "older keys stay in the file until you run this again with --retire", highlight=False
        )

"""``baccarat wallet``: provider mode's seamless wallets (``docs/wallet.md``).

- ``wallet reference``: the reference operator wallet, a small operator platform serving the
  wallet contract from its own SQLite database, with faults to order (tests and demos).

Other modules add their commands to ``wallet_app``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import typer

from baccarat.cli.app import app, console, fail

__all__ = ["read_secret", "wallet_app"]

wallet_app = typer.Typer(
    name="wallet",
    help="Provider mode: operators' seamless wallets.",
    no_args_is_help=True,
)
app.add_typer(wallet_app, name="wallet")

_OPERATOR = re.compile(r"[A-Za-z0-9._-]{1,40}")
_SECRET = re.compile(r"(?:[0-9a-fA-F]{2}){16,64}")
Rate = Annotated[float, typer.Option(min=0.0, max=1.0)]


def read_secret(secret: str | None, secret_file: Path | None) -> bytes:
    """The operator's shared secret from ``--secret`` or ``--secret-file`` (exactly one), or a
    one-line error."""
    if (secret is None) == (secret_file is None):
        fail("give the operator's secret with exactly one of --secret and --secret-file")
    if secret_file is not None:
        try:
            secret = secret_file.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError) as error:
            fail(f"--secret-file: cannot read {secret_file}: {error}")
    assert secret is not None
    if not _SECRET.fullmatch(secret):
        fail("the secret is 32 to 128 hex digits (as 'baccarat operator add' prints it)")
    return bytes.fromhex(secret)


def _check_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        fail(f"--game-url: the game server's URL is http:// or https:// and a host, not {url!r}")
    return url.rstrip("/")


@wallet_app.command("reference")
def reference_command(
    db: Annotated[Path, typer.Option(help="The wallet's own SQLite file (created if new).")],
    operator_id: Annotated[str, typer.Option(help="The operator's id at the game server.")],
    game_url: Annotated[str, typer.Option(help="The game server, for launches.")],
    secret: Annotated[
        str | None,
        typer.Option(
            help="The operator's shared secret, hex (prefer --secret-file or the variable).",
            envvar="BACCARAT_WALLET_SECRET",
            show_envvar=True,
        ),
    ] = None,
    secret_file: Annotated[
        Path | None, typer.Option(help="A file holding the shared secret, hex.")
    ] = None,
    port: Annotated[int, typer.Option(help="The port to listen on.", min=1, max=65535)] = 8800,
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    latency_ms: Annotated[
        int, typer.Option(help="A fixed delay before each answer.", min=0, max=3_600_000)
    ] = 0,
    timeout_rate: Annotated[
        float,
        typer.Option(help="Share of calls that hang past any timeout, then drop.", min=0, max=1),
    ] = 0.0,
    error_rate: Annotated[
        float, typer.Option(help="Share of calls answered 500 before moving money.", min=0, max=1)
    ] = 0.0,
    drop_rate: Annotated[
        float,
        typer.Option(help="Share of calls that move money, then drop the answer.", min=0, max=1),
    ] = 0.0,
    hang_ms: Annotated[
        int, typer.Option(help="How long a timed-out call hangs.", min=0, max=3_600_000)
    ] = 30_000,
    seed: Annotated[int | None, typer.Option(help="Seed of the faults' draws.")] = None,
) -> None:
    """Serve the reference operator wallet until Ctrl-C. Its admin (players, faults, launch)
    answers loopback clients only."""
    from baccarat.wallet.reference.app import ReferenceConfig
    from baccarat.wallet.reference.faults import Faults
    from baccarat.wallet.reference.serve import run

    if not _OPERATOR.fullmatch(operator_id):
        fail("--operator-id: 1 to 40 letters, digits, '.', '_' or '-'")
    key = read_secret(secret, secret_file)
    url = _check_url(game_url)
    if db.exists() and not db.is_file():
        fail(f"--db: {db} is not a file")
    faults = Faults(
        latency_ms=latency_ms,
        timeout_rate=timeout_rate,
        error_rate=error_rate,
        drop_rate=drop_rate,
        hang_ms=hang_ms,
    )
    config = ReferenceConfig(operator_id, key, db, url, faults, seed)
    console.print(f"Reference wallet of {operator_id} on http://{host}:{port} ({db})")
    from sqlalchemy.exc import SQLAlchemyError

    try:
        run(config, host=host, port=port)
    except OSError as error:
        fail(f"cannot serve on {host}:{port}: {error}")
    except SQLAlchemyError as error:
        fail(f"--db: cannot open {db}: {str(error).splitlines()[0]}")

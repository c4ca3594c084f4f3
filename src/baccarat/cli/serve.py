"""``baccarat serve``: run the live table service (HTTP API, WebSocket feed, dealers)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baccarat.cli.app import app, console, fail

if TYPE_CHECKING:
    from baccarat.store import Database

# The server's own modules load inside the command: other commands should not pay for them.
DEFAULT_TABLES = "standard,no-commission,ez"


def open_database(url: str) -> Database:
    """The database at ``url``, reachable and migrated, or a one-line error (exit 2)."""
    from baccarat.store import Database, StoreError, upgrade

    try:
        database = Database(url)
        database.ping()
        upgrade(database)
    except StoreError as error:
        fail(str(error))
    except Exception as error:  # a driver or migration error: say it in one line
        fail(f"cannot use the database {url!r}: {str(error).strip().splitlines()[0]}")
    return database


def seal_seeds(database: Database, key_file: Path | None) -> None:
    """Load the seed keys (creating the key file at first start) and seal every seed of a shoe
    in play still in the clear, or a one-line error (exit 2): a bad key file, a wrong key."""
    from baccarat.store.keyfile import KeySource
    from baccarat.store.seal import SealError
    from baccarat.store.shoes import seal_open_shoes

    try:
        vault = KeySource(key_file).vault()
        with database.write() as connection:
            sealed = seal_open_shoes(connection, vault)
        if sealed and database.is_sqlite:
            # Copy the sealed pages into the file now, over the seeds that were in the clear.
            raw = database.write_engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                raw.close()
    except SealError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot create the seed key file: {error}")


def default_anchor_file() -> Path:
    """``audit-anchor.jsonl`` in the user data directory, beside the default database."""
    import platformdirs

    return Path(platformdirs.user_data_dir("baccarat", appauthor=False)) / "audit-anchor.jsonl"


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE or postgresql://... (default: a SQLite "
            "file in the user data directory)"
        ),
    ] = None,
    tables: Annotated[
        str,
        typer.Option(
            help="Rule sets (names or TOML files), comma-separated: one table each; "
            "add ':face-down' or ':face-up' to choose a table's dealing."
        ),
    ] = DEFAULT_TABLES,
    betting_seconds: Annotated[
        float, typer.Option(help="Length of each betting window.", min=0.05)
    ] = 15.0,
    reveal_ms: Annotated[int, typer.Option(help="Pause before each card is turned.", min=0)] = 800,
    result_ms: Annotated[
        int, typer.Option(help="Pause on the result before the next round.", min=0)
    ] = 2000,
    demo_credit: Annotated[
        int, typer.Option(help="Credit of a new guest player, in minor units.", min=0)
    ] = 1_000_000,
    guests: Annotated[
        str, typer.Option(help="on or off: whether visitors may play as guests (demo money).")
    ] = "on",
    max_deposit: Annotated[
        int, typer.Option(help="The most one deposit may bring, in minor units.", min=1)
    ] = 10**9,
    max_balance: Annotated[
        int,
        typer.Option(help="The most a deposit may take a balance to, in minor units.", min=1),
    ] = 10**12,
    dealing: Annotated[
        str, typer.Option(help="face-up or face-down: the default for every table.")
    ] = "face-up",
    static: Annotated[
        Path | None, typer.Option(help="Folder served at /static (default: the browser table).")
    ] = None,
    seed_key_file: Annotated[
        Path | None,
        typer.Option(
            help="Key file sealing the shoe seeds at rest (default: 'seed-keys' in the user "
            "config directory, created 0600 at first start); $BACCARAT_SEED_KEY overrides it."
        ),
    ] = None,
    audit_anchor: Annotated[
        Path | None,
        typer.Option(
            help="File the audit chain's head is appended to, outside the database (default: "
            "'audit-anchor.jsonl' beside the default database; none with --db)."
        ),
    ] = None,
    audit_anchor_every: Annotated[
        int, typer.Option(help="Anchor the audit head at least every N records.", min=1)
    ] = 100,
    rate_limit: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=RATE to change a rate limit (e.g. login_per_address=30/minute;300/hour; "
            "names in docs/security.md), or 'off'. Repeatable."
        ),
    ] = None,
    rate_limit_delay: Annotated[
        float,
        typer.Option(help="Seconds a refused (429) request waits before its answer.", min=0),
    ] = 1.0,
    rate_limit_storage: Annotated[
        str | None,
        typer.Option(
            help="Where rate limits count: memory:// (default) or redis://HOST:PORT to share "
            "the counts between servers."
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies trusted to set X-Forwarded-For (comma-separated, or '*'); by "
            "default the client address is the socket peer's."
        ),
    ] = None,
    max_body_bytes: Annotated[
        int, typer.Option(help="Largest request body accepted (413 past it).", min=1024)
    ] = 65_536,
    metrics_bind: Annotated[
        str | None,
        typer.Option(help="Serve the Prometheus metrics on HOST:PORT, a listener of their own."),
    ] = None,
    metrics_token: Annotated[
        str | None,
        typer.Option(
            envvar="BACCARAT_METRICS_TOKEN",
            show_envvar=True,
            help="Serve /metrics on the public port to this bearer token (set it in the "
            "environment: a command line is visible to every user). Neither: no metrics.",
        ),
    ] = None,
    password_workers: Annotated[
        int, typer.Option(help="Threads hashing passwords (0: half the cores).", min=0)
    ] = 0,
    password_cpu_share: Annotated[
        float,
        typer.Option(
            help="The most of a core each hashing thread may use (0-1]: a login flood then "
            "slows logins, not the tables.",
            min=0.01,
            max=1.0,
        ),
    ] = 0.25,
    idle_minutes: Annotated[
        float,
        typer.Option(help="A token (a login's or a guest's) unused this long is over.", min=1),
    ] = 30.0,
    session_hours: Annotated[
        float, typer.Option(help="A login's token is over this long after the login.", min=0.1)
    ] = 12.0,
    guest_hours: Annotated[
        float, typer.Option(help="A guest's token is over this long after it was made.", min=0.1)
    ] = 24.0,
) -> None:
    """Run the live tables until stopped (Ctrl-C)."""
    import uvicorn

    from baccarat.cli.protect import protection_settings, uvicorn_proxy_options
    from baccarat.rulesets import RuleSetError
    from baccarat.server import ServerConfig, create_app, default_static_dir, tables_from
    from baccarat.server.wsprotocol import WS_MAX_BYTES, FeedProtocol
    from baccarat.store import default_database_url
    from baccarat.table import Dealing

    if dealing not in ("face-up", "face-down"):
        fail(f"--dealing must be 'face-up' or 'face-down', not {dealing!r}")
    if guests not in ("on", "off"):
        fail(f"--guests must be 'on' or 'off', not {guests!r}")
    specs = [part.strip() for part in tables.split(",") if part.strip()]
    if not specs:
        fail("--tables names no rule set")
    mode: Dealing = "face-up" if dealing == "face-up" else "face-down"
    try:
        settings = tables_from(
            specs,
            betting_ms=max(1, round(betting_seconds * 1000)),
            reveal_ms=reveal_ms,
            result_ms=result_ms,
            dealing=mode,
        )
    except (RuleSetError, ValueError) as error:
        fail(str(error))
    protections = protection_settings(
        rate_limit or [],
        rate_limit_storage,
        max_body_bytes,
        metrics_bind,
        metrics_token,
        password_workers,
        rate_limit_delay,
        password_cpu_share,
    )
    from baccarat.store.money import MoneyBounds

    try:
        MoneyBounds(max_deposit, max_balance)
    except ValueError as error:
        fail(str(error))
    if demo_credit > max_balance:
        fail(f"--demo-credit ({demo_credit}) cannot exceed --max-balance ({max_balance})")
    url = db or default_database_url()
    database = open_database(url)
    seal_seeds(database, seed_key_file)
    database.dispose()
    if audit_anchor is None and db is None:
        audit_anchor = default_anchor_file()
    config = ServerConfig(
        url,
        settings,
        demo_credit=demo_credit,
        max_deposit=max_deposit,
        max_balance=max_balance,
        guests=guests == "on",
        static_dir=static or default_static_dir(),
        seed_key_file=seed_key_file,
        audit_anchor=audit_anchor,
        audit_anchor_every=audit_anchor_every,
        session_idle_ms=round(idle_minutes * 60_000),
        session_lifetime_ms=round(session_hours * 3_600_000),
        guest_lifetime_ms=round(guest_hours * 3_600_000),
        **protections,
    )
    names = ", ".join(t.table_id for t in settings)
    console.print(f"baccarat table service on http://{host}:{port}/  (tables: {names})")
    console.print(f"database: {database.url}   API: http://{host}:{port}/docs   Ctrl-C to stop")
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="on",
            backlog=4096,
            ws=FeedProtocol,
            ws_max_size=WS_MAX_BYTES,
            timeout_keep_alive=30,
            server_header=False,
            **uvicorn_proxy_options(forwarded_allow_ips),
        )
    )
    server.run()

"""``baccarat serve``: run the live table service (HTTP API, WebSocket feed, dealers).

The options are ``baccarat.server.config.Settings``: each may also come from the environment
(``BACCARAT_PORT``, ``BACCARAT_METRICS_TOKEN``, ...), and an option given overrides it. So an
option's default here is ``None``, "not given": the defaults are the ``Settings``'.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baccarat.cli.app import app, console, fail

if TYPE_CHECKING:
    from baccarat.store import Database

# The server's own modules load inside the command: other commands should not pay for them.


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


def _stdin_on_descriptor_0() -> None:
    """uvicorn hands each worker the supervisor's stdin by its number, and a spawned process
    keeps only descriptors 0 to 2: a stdin elsewhere (a multiprocessing child's /dev/null, say)
    failed every worker at its start (EBADF), so it is put on descriptor 0."""
    try:
        number = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # none: uvicorn hands none on
        return
    if number != 0:
        os.dup2(number, 0)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115  (stdin: open for the process's life)


def listen_on(host: str, port: int, backlog: int) -> socket.socket:
    """A socket listening on ``host:port`` as uvicorn would open it (``SO_REUSEADDR``, IPv6 for
    an address with a colon), or a one-line error (exit 2): the port taken, the address wrong.

    Listening at once keeps the port from then on: requests made while the service starts
    wait in the backlog rather than being refused.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            fail(f"port {port} on {host} is already in use")
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    return sock


def default_anchor_file() -> Path:
    """``audit-anchor.jsonl`` in the user data directory, beside the default database."""
    import platformdirs

    return Path(platformdirs.user_data_dir("baccarat", appauthor=False)) / "audit-anchor.jsonl"


@app.command(
    "serve",
    epilog="Every option may also be set in the environment as BACCARAT_ and its name in "
    "capitals (BACCARAT_PORT=8080, BACCARAT_RATE_LIMIT as a JSON list); an option given "
    "overrides it. Defaults: docs/table-service.md.",
)
def serve_command(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.")] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE or postgresql://... (default: a SQLite "
            "file in the user data directory)"
        ),
    ] = None,
    tables: Annotated[
        str | None,
        typer.Option(
            help="Rule sets (names or TOML files), comma-separated: one table each; "
            "add ':face-down' or ':face-up' to choose a table's dealing."
        ),
    ] = None,
    betting_seconds: Annotated[
        float | None, typer.Option(help="Length of each betting window.")
    ] = None,
    reveal_ms: Annotated[int | None, typer.Option(help="Pause before each card is turned.")] = None,
    result_ms: Annotated[
        int | None, typer.Option(help="Pause on the result before the next round.")
    ] = None,
    demo_credit: Annotated[
        int | None, typer.Option(help="Credit of a new guest player, in minor units.")
    ] = None,
    guests: Annotated[
        str | None,
        typer.Option(help="on or off: whether visitors may play as guests (demo money)."),
    ] = None,
    max_deposit: Annotated[
        int | None, typer.Option(help="The most one deposit may bring, in minor units.")
    ] = None,
    max_balance: Annotated[
        int | None,
        typer.Option(help="The most a deposit may take a balance to, in minor units."),
    ] = None,
    dealing: Annotated[
        str | None, typer.Option(help="face-up or face-down: the default for every table.")
    ] = None,
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
        int | None, typer.Option(help="Anchor the audit head at least every N records.")
    ] = None,
    rate_limit: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=RATE to change a rate limit (e.g. login_per_address=30/minute;300/hour; "
            "names in docs/security.md), or 'off'. Repeatable."
        ),
    ] = None,
    rate_limit_delay: Annotated[
        float | None,
        typer.Option(help="Seconds a refused (429) request waits before its answer."),
    ] = None,
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
        int | None, typer.Option(help="Largest request body accepted (413 past it).")
    ] = None,
    metrics_bind: Annotated[
        str | None,
        typer.Option(help="Serve the Prometheus metrics on HOST:PORT, a listener of their own."),
    ] = None,
    metrics_token: Annotated[
        str | None,
        typer.Option(
            help="Serve /metrics on the public port to this bearer token (set it in the "
            "environment, BACCARAT_METRICS_TOKEN: a command line is visible to every user). "
            "Neither: no metrics."
        ),
    ] = None,
    password_workers: Annotated[
        int | None, typer.Option(help="Threads hashing passwords (0: half the cores).")
    ] = None,
    password_cpu_share: Annotated[
        float | None,
        typer.Option(
            help="The most of a core each hashing thread may use (0-1]: a login "
            "flood then slows logins, not the tables."
        ),
    ] = None,
    idle_minutes: Annotated[
        float | None,
        typer.Option(help="A token (a login's or a guest's) unused this long is over."),
    ] = None,
    session_hours: Annotated[
        float | None, typer.Option(help="A login's token is over this long after the login.")
    ] = None,
    guest_hours: Annotated[
        float | None,
        typer.Option(help="A guest's token is over this long after it was made."),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="redis://HOST:PORT/DB: run as one node of a cluster (needs --db "
            "postgresql://...): events, presence and rate limits shared through it."
        ),
    ] = None,
    redis_prefix: Annotated[
        str | None, typer.Option(help="Prefix of every Redis key (default 'baccarat').")
    ] = None,
    node_id: Annotated[
        str | None,
        typer.Option(help="This node's name in the cluster (default: host name and pid)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(help="Processes serving on the one port (above 1: PostgreSQL and Redis)."),
    ] = None,
    lease_ms: Annotated[
        int | None,
        typer.Option(help="How long a node's hold on a table outlives its last renewal."),
    ] = None,
) -> None:
    """Run the live tables until stopped (Ctrl-C)."""
    import uvicorn

    from baccarat.cli.protect import protection_settings, uvicorn_proxy_options
    from baccarat.server import ServerConfig, create_app, default_static_dir
    from baccarat.server.config import ClusterConfig, Settings
    from baccarat.server.pause import install_from_env
    from baccarat.server.wsprotocol import WS_MAX_BYTES, FeedProtocol
    from baccarat.store import default_database_url

    # The options given (a repeatable option not given is an empty list): they override the
    # environment; the rest comes from it or from the Settings' defaults.
    options = {name: value for name, value in locals().items() if name in Settings.model_fields}
    given = {name: None if value == [] else value for name, value in options.items()}
    try:
        settings = Settings.load(**given)
        tables_settings = settings.table_settings()
    except ValueError as error:  # a bad value, or a rule set that cannot be loaded
        fail(str(error))
    cluster = None
    if settings.redis is not None:
        cluster = ClusterConfig(
            settings.redis,
            settings.node_id or f"{socket.gethostname()}-{os.getpid()}",
            settings.redis_prefix,
            settings.lease_ms,
        )
    protections = protection_settings(
        list(settings.rate_limit),
        # A cluster counts its rate limits together, in its Redis, unless told otherwise.
        settings.rate_limit_storage or settings.redis,
        settings.max_body_bytes,
        settings.metrics_bind,
        settings.metrics_token,
        settings.password_workers,
        settings.rate_limit_delay,
        settings.password_cpu_share,
    )
    url = settings.db or default_database_url()
    database = open_database(url)
    seal_seeds(database, settings.seed_key_file)
    database.dispose()
    anchor = settings.audit_anchor
    if anchor is None and settings.db is None:
        anchor = default_anchor_file()
    config = ServerConfig(
        url,
        tables_settings,
        demo_credit=settings.demo_credit,
        max_deposit=settings.max_deposit,
        max_balance=settings.max_balance,
        guests=settings.guests == "on",
        static_dir=settings.static or default_static_dir(),
        seed_key_file=settings.seed_key_file,
        audit_anchor=anchor,
        audit_anchor_every=settings.audit_anchor_every,
        session_idle_ms=round(settings.idle_minutes * 60_000),
        session_lifetime_ms=round(settings.session_hours * 3_600_000),
        guest_lifetime_ms=round(settings.guest_hours * 3_600_000),
        cluster=cluster,
        **protections,
    )
    try:
        install_from_env()  # test-only: BACCARAT_TEST_PAUSE_AT, the crash tests' checkpoint
    except ValueError as error:
        fail(str(error))
    host, port = settings.host, settings.port
    backlog = 4096
    # The port is taken before the address is printed: a port in use is one line, not an
    # address printed and then uvicorn's failure.
    listener = listen_on(host, port, backlog)
    names = ", ".join(t.table_id for t in tables_settings)
    console.print(f"baccarat table service on http://{host}:{port}/  (tables: {names})")
    console.print(f"database: {database.url}   API: http://{host}:{port}/docs   Ctrl-C to stop")
    if cluster is not None:
        console.print(
            f"node {cluster.node_id} of the cluster on {settings.redis} "
            f"(prefix {cluster.prefix!r}, {settings.workers} worker(s))"
        )
    options = dict(
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        backlog=backlog,
        ws=FeedProtocol,
        ws_max_size=WS_MAX_BYTES,
        # Events are small JSON sent to thousands: compressing each again for every
        # connection cost more CPU than all the rest of the delivery.
        ws_per_message_deflate=False,
        timeout_keep_alive=30,
        server_header=False,
        **uvicorn_proxy_options(settings.forwarded_allow_ips),
    )
    if settings.workers > 1:
        from baccarat.server.workers import hand_down

        # uvicorn's supervisor binds the port itself for its workers: the check above is
        # handed back to it.
        listener.close()
        hand_down(config)
        _stdin_on_descriptor_0()
        uvicorn.run(
            "baccarat.server.workers:worker_app",
            factory=True,
            workers=settings.workers,
            # A worker's start (imports, migrations checked, leases) can take seconds on a
            # busy machine: the supervisor must not take it for hung and kill it.
            timeout_worker_healthcheck=60,
            **options,
        )
        return
    uvicorn.Server(uvicorn.Config(create_app(config), **options)).run(sockets=[listener])

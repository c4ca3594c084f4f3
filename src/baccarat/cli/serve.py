"""``baccarat serve``: run the live table service (HTTP API, WebSocket feed, dealers).

The options are the fields of ``baccarat.server.config.Settings``, generated from them
(``baccarat.cli.options``): each may also come from the environment (``BACCARAT_PORT``,
``BACCARAT_METRICS_TOKEN``, ...), and an option given overrides it.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

import typer

from baccarat.cli.app import app, console, fail
from baccarat.cli.options import SettingsCommand, given

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic_settings import BaseSettings

    from baccarat.server.config import Settings
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


class _ServeOptions(SettingsCommand):
    @staticmethod
    def settings() -> type[BaseSettings]:
        from baccarat.server.config import Settings

        return Settings


@app.command(
    "serve",
    cls=_ServeOptions,
    epilog="Every option may also be set in the environment as BACCARAT_ and its name in "
    "capitals (BACCARAT_PORT=8080, BACCARAT_RATE_LIMIT as a JSON list); an option given "
    "overrides it.",
)
def serve_command(ctx: typer.Context) -> None:
    """Run the live tables until stopped (Ctrl-C)."""
    from baccarat.server.config import Settings

    options = given(ctx)
    if options.get("locale") is None and "BACCARAT_LOCALE" not in os.environ:
        options["locale"] = machine_locale(os.environ)
    try:
        settings = Settings.load(**options)
    except ValueError as error:  # a bad value, or a rule set that cannot be loaded
        fail(str(error))
    refusal = settings.virtual_clock_refusal(os.environ)  # a test's switch: never in production
    if refusal is not None:
        fail(refusal)
    serve(settings.on_this_machine())


def machine_locale(environ: Mapping[str, str]) -> str:
    """The house's language from the machine's locale, as POSIX picks it (LC_ALL, then
    LC_MESSAGES, then LANG): an Indonesian machine serves in Indonesian, any other in English.

    >>> machine_locale({"LANG": "id_ID.UTF-8"}), machine_locale({"LANG": "C.UTF-8"})
    ('id', 'en')
    >>> machine_locale({"LC_ALL": "en_US.UTF-8", "LANG": "id_ID.UTF-8"})
    'en'
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "id" if value.split(".")[0].split("_")[0].lower() in ("id", "in") else "en"
    return "en"


def serve(settings: Settings) -> None:
    """Serve ``settings`` (``on_this_machine``'s) until stopped, or fail in one line (exit 2)."""
    import uvicorn

    from baccarat.cli.protect import check_protections, uvicorn_proxy_options
    from baccarat.server import create_app
    from baccarat.server.edge import edge_protocol
    from baccarat.server.pause import install_from_env
    from baccarat.server.wsprotocol import WS_MAX_BYTES, feed_protocol

    check_protections(settings)
    database = open_database(settings.database_url)
    seal_seeds(database, settings.seed_key_file)
    database.dispose()
    try:
        install_from_env()  # test-only: BACCARAT_TEST_PAUSE_AT, the crash tests' checkpoint
    except ValueError as error:
        fail(str(error))
    host, port = settings.host, settings.port
    backlog = 4096
    # The port is taken before the address is printed: a port in use is one line, not an
    # address printed and then uvicorn's failure.
    listener = listen_on(host, port, backlog)
    names = ", ".join(t.table_id for t in settings.tables)
    console.print(f"baccarat table service on http://{host}:{port}/  (tables: {names})")
    console.print(f"database: {database.url}   API: http://{host}:{port}/docs   Ctrl-C to stop")
    cluster = settings.cluster
    if cluster is not None:
        console.print(
            f"node {cluster.node_id} of the cluster on {settings.redis} "
            f"(prefix {cluster.prefix!r}, {settings.workers} worker(s))"
        )
    if settings.studio_robot is not None:
        from baccarat.cli.studio_demo import start_robot

        local = "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)
        base = f"http://[{local}]:{port}" if ":" in local else f"http://{local}:{port}"
        start_robot(settings.database_url, base, settings.studio_robot)
    # h11 with its bounds on the request head, a head timeout and a cap per address.
    http, http_options = edge_protocol(settings)
    options = dict(
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        backlog=backlog,
        http=http,
        **http_options,
        ws=feed_protocol(),  # FeedProtocol, or uvicorn's own if it lacks what it reads
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
        hand_down(settings)
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
    uvicorn.Server(uvicorn.Config(create_app(settings), **options)).run(sockets=[listener])

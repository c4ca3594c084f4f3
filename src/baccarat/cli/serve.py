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
    dealing: Annotated[
        str, typer.Option(help="face-up or face-down: the default for every table.")
    ] = "face-up",
    static: Annotated[
        Path | None, typer.Option(help="Folder served at /static (default: the browser table).")
    ] = None,
) -> None:
    """Run the live tables until stopped (Ctrl-C)."""
    import uvicorn

    from baccarat.rulesets import RuleSetError
    from baccarat.server import ServerConfig, create_app, default_static_dir, tables_from
    from baccarat.store import default_database_url
    from baccarat.table import Dealing

    if dealing not in ("face-up", "face-down"):
        fail(f"--dealing must be 'face-up' or 'face-down', not {dealing!r}")
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
    url = db or default_database_url()
    database = open_database(url)
    database.dispose()
    config = ServerConfig(
        url, settings, demo_credit=demo_credit, static_dir=static or default_static_dir()
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
            ws="websockets-sansio",
            timeout_keep_alive=30,
        )
    )
    server.run()

"""The configuration of one server: database, tables, credit, static files.

>>> config = ServerConfig("sqlite:///x.db", tables_from(["standard", "ez"], betting_ms=1000))
>>> [t.table_id for t in config.tables], config.tables[0].betting_ms
(['standard', 'ez'], 1000)
>>> tables_from(["standard", "standard"])
Traceback (most recent call last):
...
ValueError: table 'standard' is named twice
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from baccarat.rulesets import load_ruleset
from baccarat.table import Dealing, TableSettings

__all__ = ["DEFAULT_TABLES", "ServerConfig", "default_static_dir", "tables_from"]

DEFAULT_TABLES = ("standard", "no-commission", "ez")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything ``create_app`` needs besides the clock."""

    database_url: str
    tables: tuple[TableSettings, ...]
    #: What a new guest player is given, in minor units.
    demo_credit: int = 1_000_000
    #: Served at ``/static`` (the browser table); ``None`` serves nothing there.
    static_dir: Path | None = None
    #: The most bet requests one database transaction commits together.
    max_batch: int = 512
    #: Sessions: a token unused for ``session_idle_ms`` is over, and so is a login's token
    #: ``session_lifetime_ms`` (a guest's ``guest_lifetime_ms``) after it was issued.
    session_idle_ms: int = 30 * 60_000
    session_lifetime_ms: int = 12 * 3_600_000
    guest_lifetime_ms: int = 24 * 3_600_000

    def __post_init__(self) -> None:
        if self.demo_credit < 0:
            raise ValueError(f"the demo credit cannot be negative, not {self.demo_credit}")
        if not self.tables:
            raise ValueError("a server runs at least one table")
        for name in ("session_idle_ms", "session_lifetime_ms", "guest_lifetime_ms"):
            if getattr(self, name) < 1000:
                raise ValueError(f"{name} must be at least 1000, not {getattr(self, name)}")


def tables_from(
    rulesets: Sequence[str],
    *,
    betting_ms: int = 15_000,
    reveal_ms: int = 800,
    result_ms: int = 2_000,
    dealing: Dealing = "face-up",
) -> tuple[TableSettings, ...]:
    """One table per rule set (a built-in name or a TOML file), named after the rule set.

    A spec may end in ``:face-up`` or ``:face-down`` to choose that table's dealing (the house
    decides, table by table); ``dealing`` is the default for the others.
    Raises ``RuleSetError`` for a rule set that cannot be loaded.

    >>> [(t.table_id, t.dealing) for t in tables_from(["standard", "ez:face-down"])]
    [('standard', 'face-up'), ('ez', 'face-down')]
    """
    tables = []
    seen: set[str] = set()
    for entry in rulesets:
        spec, table_dealing = _dealing_suffix(entry, dealing)
        table_id = load_ruleset(spec).name
        if table_id in seen:
            raise ValueError(f"table {table_id!r} is named twice")
        seen.add(table_id)
        tables.append(
            TableSettings(
                table_id,
                spec,
                betting_ms=betting_ms,
                reveal_ms=reveal_ms,
                result_ms=result_ms,
                dealing=table_dealing,
            )
        )
    return tuple(tables)


def _dealing_suffix(entry: str, default: Dealing) -> tuple[str, Dealing]:
    spec, _, suffix = entry.rpartition(":")
    if suffix == "face-up":
        return spec, "face-up"
    if suffix == "face-down":
        return spec, "face-down"
    return entry, default


def default_static_dir() -> Path:
    """The browser table's files (``baccarat.web``'s ``static``) if installed, else a placeholder."""
    if importlib.util.find_spec("baccarat.web") is not None:
        web = Path(str(resources.files("baccarat.web"))) / "static"
        if web.is_dir():
            return web
    return Path(str(resources.files("baccarat.server"))) / "static"

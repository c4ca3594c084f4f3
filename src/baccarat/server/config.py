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

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from baccarat.rulesets import load_ruleset
from baccarat.server.ratelimit import RateLimitSettings
from baccarat.store.money import DEFAULT_MAX_BALANCE, DEFAULT_MAX_DEPOSIT, MoneyBounds
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
    #: The most one deposit may bring, and the most a deposit may take a balance to, in minor
    #: units (``baccarat.store.money`` explains why every sum then stays inside 64 bits).
    max_deposit: int = DEFAULT_MAX_DEPOSIT
    max_balance: int = DEFAULT_MAX_BALANCE
    #: Whether visitors may play as guests with demo money (``baccarat serve --guests``).
    guests: bool = True
    #: Served at ``/static`` (the browser table); ``None`` serves nothing there.
    static_dir: Path | None = None
    #: The most bet requests one database transaction commits together.
    max_batch: int = 512
    #: Sessions: a token unused for ``session_idle_ms`` is over, and so is a login's token
    #: ``session_lifetime_ms`` (a guest's ``guest_lifetime_ms``) after it was issued.
    session_idle_ms: int = 30 * 60_000
    session_lifetime_ms: int = 12 * 3_600_000
    guest_lifetime_ms: int = 24 * 3_600_000
    #: The key file that seals shoe seeds (``None``: the user configuration directory's);
    #: ``BACCARAT_SEED_KEY`` in the environment takes precedence.
    seed_key_file: Path | None = None
    #: Where the audit chain's head is appended (``None``: not anchored).
    audit_anchor: Path | None = None
    #: An anchor at least every this many audit records (and at start and shutdown).
    audit_anchor_every: int = 100
    #: Rate limits on logins, registrations and guests (``baccarat.server.ratelimit``).
    rate_limits: RateLimitSettings = RateLimitSettings()  # noqa: RUF009 (frozen: shared safely)
    #: Threads hashing passwords (0: half the cores) and the most hashes waiting (then 429).
    password_workers: int = 0
    password_queue: int = 64
    #: The most of one core each hashing thread may use (it rests between hashes).
    password_cpu_share: float = 0.25
    #: The largest request body accepted, in bytes (413 past it).
    max_body_bytes: int = 65_536
    #: ``(host, port)`` of a listener of its own for the Prometheus metrics, if any.
    metrics_bind: tuple[str, int] | None = None
    #: A bearer token that opens ``/metrics`` on the public port; without it (and by
    #: default) the public port has no ``/metrics``.
    metrics_token: str | None = None

    def __post_init__(self) -> None:
        if self.demo_credit < 0:
            raise ValueError(f"the demo credit cannot be negative, not {self.demo_credit}")
        if not self.tables:
            raise ValueError("a server runs at least one table")
        for name in ("session_idle_ms", "session_lifetime_ms", "guest_lifetime_ms"):
            if getattr(self, name) < 1000:
                raise ValueError(f"{name} must be at least 1000, not {getattr(self, name)}")
        bounds = self.money_bounds  # raises ValueError for bounds out of order or range
        if self.demo_credit > bounds.max_balance:
            raise ValueError(
                f"the demo credit ({self.demo_credit}) cannot exceed max_balance "
                f"({bounds.max_balance})"
            )
        if self.audit_anchor_every < 1:
            raise ValueError(
                f"audit_anchor_every must be at least 1, not {self.audit_anchor_every}"
            )

    @property
    def money_bounds(self) -> MoneyBounds:
        """The cashier's bounds (``max_deposit``, ``max_balance``)."""
        return MoneyBounds(self.max_deposit, self.max_balance)


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
    """The browser table's files: ``baccarat.web``'s ``static``, installed with the package."""
    return Path(str(resources.files("baccarat.web"))) / "static"

"""The configuration of one server: database, tables, credit, static files.

``Settings`` is everything ``baccarat serve`` takes, read from ``BACCARAT_*`` environment
variables (``BACCARAT_PORT=8080``, ``BACCARAT_METRICS_TOKEN=...``; a list such as
``BACCARAT_RATE_LIMIT`` is JSON); a flag given on the command line overrides it.
``ServerConfig`` is what ``create_app`` needs, built from them.

>>> settings = Settings(port=8080, tables="standard, ez:face-down")
>>> settings.port, [(t.table_id, t.dealing) for t in settings.table_settings()]
(8080, [('standard', 'face-up'), ('ez', 'face-down')])
>>> Settings(port=0)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
port
  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=0, input_type=int]
    ...
>>> config = ServerConfig("sqlite:///x.db", tables_from(["standard", "ez"], betting_ms=1000))
>>> [t.table_id for t in config.tables], config.tables[0].betting_ms
(['standard', 'ez'], 1000)
>>> tables_from(["standard", "standard"])
Traceback (most recent call last):
...
ValueError: table 'standard' is named twice
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import Field, ValidationError, model_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from baccarat.rulesets import load_ruleset
from baccarat.server.ratelimit import RateLimitSettings
from baccarat.store.money import DEFAULT_MAX_BALANCE, DEFAULT_MAX_DEPOSIT, MoneyBounds
from baccarat.table import Dealing, TableSettings

__all__ = [
    "DEFAULT_TABLES",
    "ENV_PREFIX",
    "ClusterConfig",
    "ServerConfig",
    "Settings",
    "default_static_dir",
    "tables_from",
]

DEFAULT_TABLES = ("standard", "no-commission", "ez")
#: The prefix of the environment variables ``Settings`` reads (``BACCARAT_PORT``, ...).
ENV_PREFIX = "BACCARAT_"


class Settings(BaseSettings):
    """Everything ``baccarat serve`` takes: each field is the option of its name
    (``--betting-seconds``) and the environment variable ``BACCARAT_`` + its name in capitals
    (``BACCARAT_BETTING_SECONDS``); an option given overrides the variable.

    ``BACCARAT_SEED_KEY`` is not a setting: it is the seed key itself, which the key source
    reads (``baccarat.store.keyfile``) and which never appears in a command line.
    """

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    host: str = Field("127.0.0.1", description="Address to listen on.")
    port: int = Field(8000, ge=1, le=65535, description="Port to listen on.")
    #: ``None``: a SQLite file in the user data directory.
    db: str | None = Field(None, description="Database URL: sqlite:///FILE or postgresql://...")
    tables: str = Field(",".join(DEFAULT_TABLES), description="Rule sets, comma-separated.")
    betting_seconds: float = Field(15.0, ge=0.05, description="Length of each betting window.")
    reveal_ms: int = Field(800, ge=0, description="Pause before each card is turned.")
    result_ms: int = Field(2000, ge=0, description="Pause on the result before the next round.")
    demo_credit: int = Field(1_000_000, ge=0, description="A new guest's credit, minor units.")
    guests: Literal["on", "off"] = Field("on", description="Whether visitors may play as guests.")
    max_deposit: int = Field(10**9, ge=1, description="The most one deposit may bring.")
    max_balance: int = Field(10**12, ge=1, description="The most a deposit may take a balance to.")
    dealing: Literal["face-up", "face-down"] = Field("face-up", description="Tables' default.")
    static: Path | None = Field(None, description="Folder served at /static.")
    seed_key_file: Path | None = Field(None, description="Key file sealing the shoe seeds.")
    audit_anchor: Path | None = Field(None, description="File the audit chain's head goes to.")
    audit_anchor_every: int = Field(100, ge=1, description="Anchor at least every N records.")
    rate_limit: tuple[str, ...] = Field((), description="NAME=RATE changes, or 'off'.")
    rate_limit_delay: float = Field(1.0, ge=0, description="Seconds a 429 waits.")
    rate_limit_storage: str | None = Field(None, description="memory:// or redis://HOST:PORT.")
    forwarded_allow_ips: str | None = Field(None, description="Proxies trusted for XFF.")
    max_body_bytes: int = Field(65_536, ge=1024, description="Largest request body.")
    metrics_bind: str | None = Field(None, description="HOST:PORT of a metrics listener.")
    metrics_token: str | None = Field(None, description="Bearer token of /metrics.")
    password_workers: int = Field(0, ge=0, description="Threads hashing passwords (0: half).")
    password_cpu_share: float = Field(0.25, ge=0.01, le=1.0, description="Of a core, at most.")
    idle_minutes: float = Field(30.0, ge=1, description="A token unused this long is over.")
    session_hours: float = Field(12.0, ge=0.1, description="A login's token lifetime.")
    guest_hours: float = Field(24.0, ge=0.1, description="A guest's token lifetime.")
    redis: str | None = Field(None, description="redis://HOST:PORT/DB: run as one node of many.")
    redis_prefix: str = Field(
        "baccarat",
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="Prefix of every Redis key.",
    )
    node_id: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="This node's name (default: host name and process id).",
    )
    workers: int = Field(1, ge=1, le=64, description="Processes serving on the one port.")
    lease_ms: int = Field(3000, ge=300, le=60_000, description="A dealer's lease on a table.")

    @model_validator(mode="after")
    def _cluster_needs_postgres_and_redis(self) -> Self:
        postgres = (self.db or "").startswith(("postgresql", "postgres://"))
        if self.redis is not None and not postgres:
            raise ValueError("--redis needs --db postgresql://...: nodes share one PostgreSQL")
        if self.workers > 1 and (self.redis is None or not postgres):
            raise ValueError(
                "--workers above 1 needs --db postgresql://... and --redis redis://...: "
                "SQLite serves one process"
            )
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://")):
            raise ValueError(f"--redis must be a redis:// or rediss:// URL, not {self.redis!r}")
        return self

    @model_validator(mode="after")
    def _bounds_in_order(self) -> Self:
        MoneyBounds(self.max_deposit, self.max_balance)  # a ValueError names the bad one
        if self.demo_credit > self.max_balance:
            raise ValueError(
                f"--demo-credit ({self.demo_credit}) cannot exceed --max-balance ({self.max_balance})"
            )
        return self

    @classmethod
    def load(cls, **given: Any) -> Settings:
        """The settings of the environment, overridden by the options ``given`` (a ``None``
        is an option not given); a ``ValueError`` in one line for a bad value.

        >>> Settings.load(port=None, dealing="face-down").dealing
        'face-down'
        >>> Settings.load(dealing="sideways")
        Traceback (most recent call last):
        ...
        ValueError: --dealing must be 'face-up' or 'face-down', not 'sideways' (the option or BACCARAT_DEALING)
        """
        try:
            return cls(**{name: value for name, value in given.items() if value is not None})
        except ValidationError as error:
            raise ValueError("; ".join(_problem(e) for e in error.errors())) from None
        except SettingsError as error:
            # pydantic-settings decodes a list from the environment as JSON before validating it,
            # and names the field only inside its message.
            field = re.search(r'field "(\w+)"', str(error))
            name = f"BACCARAT_{field.group(1).upper()}" if field else "a BACCARAT_ variable"
            raise ValueError(f"{name} must be a JSON list, such as '[\"off\"]'") from None

    def table_settings(self) -> tuple[TableSettings, ...]:
        """One table per rule set of ``tables`` (``tables_from``); a ``ValueError`` or a
        ``RuleSetError`` for a list that names none, twice the same, or an unknown one."""
        specs = [part.strip() for part in self.tables.split(",") if part.strip()]
        if not specs:
            raise ValueError("--tables names no rule set")
        return tables_from(
            specs,
            betting_ms=max(1, round(self.betting_seconds * 1000)),
            reveal_ms=self.reveal_ms,
            result_ms=self.result_ms,
            dealing=self.dealing,
        )


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """One node of several on one PostgreSQL and one Redis (``docs/deployment.md``)."""

    redis_url: str
    node_id: str
    #: Prefix of every Redis key (several clusters, or tests, can share one Redis).
    prefix: str = "baccarat"
    #: A dealer holds its table this long past its last renewal (renewed every quarter).
    lease_ms: int = 3000

    def __post_init__(self) -> None:
        if self.lease_ms < 300:
            raise ValueError(f"lease_ms must be at least 300, not {self.lease_ms}")


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
    #: How this process takes part in a cluster (``None``: alone, on any database).
    cluster: ClusterConfig | None = None

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


def _problem(error: ErrorDetails) -> str:
    """One validation error as a sentence about the option (or variable) that caused it."""
    message = error["msg"].removeprefix("Value error, ")
    if not error["loc"]:
        return message
    name = str(error["loc"][0])
    message = re.sub(r"^(Input|String|Value) should", "must", message)
    where = f"the option or {ENV_PREFIX}{name.upper()}"
    return f"--{name.replace('_', '-')} {message}, not {error['input']!r} ({where})"


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
    currencies: set[str] = set()
    for entry in rulesets:
        spec, table_dealing = _dealing_suffix(entry, dealing)
        ruleset = load_ruleset(spec)
        table_id = ruleset.name
        if table_id in seen:
            raise ValueError(f"table {table_id!r} is named twice")
        seen.add(table_id)
        # A player's one balance is staked at every table: the tables count in one money.
        currencies.add(ruleset.currency)
        if len(currencies) > 1:
            raise ValueError(
                f"the tables count in different currencies ({', '.join(sorted(currencies))}); "
                "a server's tables share one"
            )
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

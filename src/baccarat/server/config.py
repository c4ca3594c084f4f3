"""The configuration of one server: ``Settings``, every option of ``baccarat serve`` declared once.

Each field is the option of its name (``--betting-seconds``) and the environment variable
``BACCARAT_`` + its name in capitals (``BACCARAT_BETTING_SECONDS``; a list such as
``BACCARAT_RATE_LIMIT`` is JSON); an option given overrides the variable. The command's
options, their defaults and bounds in ``--help``, are generated from these fields
(``baccarat.cli.options``), and ``create_app`` takes the same object.

>>> settings = Settings(db="sqlite:///x.db", port=8080, tables="standard, ez:face-down")
>>> settings.port, [(t.table_id, t.dealing) for t in settings.tables]
(8080, [('standard', 'face-up'), ('ez', 'face-down')])
>>> settings.tables[0].betting_ms, settings.session_idle_ms, settings.guests
(15000, 1800000, True)
>>> Settings(port=0)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
port
  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=0, input_type=int]
    ...
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    BeforeValidator,
    Field,
    InstanceOf,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

from baccarat.rulesets import load_ruleset
from baccarat.server.hygiene import stream_source
from baccarat.server.metrics import parse_bind
from baccarat.server.ratelimit import RATES, RateLimitSettings
from baccarat.server.table_specs import DEFAULT_TABLES, LOCALE_TABLES, tables_from
from baccarat.store.money import DEFAULT_MAX_BALANCE, DEFAULT_MAX_DEPOSIT, MONEY_LIMIT, MoneyBounds
from baccarat.table import Dealing, TableSettings

__all__ = [
    "ENV_PREFIX",
    "TESTING_VARIABLE",
    "ClusterConfig",
    "Settings",
    "default_static_dir",
]

#: A guest's demo credit where the tables count cents ($10,000.00), and where they count whole
#: rupiah (Rp 100.000.000).
DEMO_CREDIT_CENTS = 1_000_000
DEMO_CREDIT_WHOLE = 100_000_000

#: The environment variable that says a process is a test (``virtual_clock`` needs it).
TESTING_VARIABLE = "BACCARAT_TESTING"
#: The prefix of the environment variables ``Settings`` reads (``BACCARAT_PORT``, ...).
ENV_PREFIX = "BACCARAT_"


def _on_off(value: object) -> object:
    """``--guests on|off`` (or a ``bool``, from Python) as the ``bool`` the server reads."""
    if isinstance(value, bool):
        return value
    if value in ("on", "off"):
        return value == "on"
    # The same message a ``Literal["on", "off"]`` would give: `_problem` words it.
    raise PydanticCustomError("literal_error", "Input should be 'on' or 'off'")


class Settings(BaseSettings):
    """Everything ``baccarat serve`` takes, and everything ``create_app`` reads.

    A field holds what the server uses where that differs from what is typed: ``tables``
    (given as ``"standard, ez:face-down"``) holds one ``TableSettings`` each, paced by
    ``betting_seconds``, ``reveal_ms``, ``result_ms``, ``squeeze_seconds`` and ``dealing``;
    ``guests`` (``on`` or ``off``) is a ``bool``. The server's other units are properties (``session_idle_ms``,
    ``money_bounds``, ``rate_limits``, ``cluster``, ...). A ``None`` that the help calls a
    default of this machine (the database, the static folder, the anchor file, the node's
    name) is filled in by ``on_this_machine``, which ``baccarat serve`` calls.

    ``BACCARAT_SEED_KEY`` is not a setting: it is the seed key itself, which the key source
    reads (``baccarat.store.keyfile``) and which never appears in a command line.
    """

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    #: The most bet requests one database transaction commits together (not an option).
    max_batch: ClassVar[int] = 512
    _guest_credit: int = PrivateAttr(0)

    host: str = Field("127.0.0.1", description="Address to listen on.")
    port: int = Field(8000, ge=1, le=65535, description="Port to listen on.")
    db: str | None = Field(
        None,
        description="Database URL: sqlite:///FILE or postgresql://... "
        "(default: a SQLite file in the user data directory).",
    )
    # The pacing comes before ``tables``: validating the list of tables reads it.
    betting_seconds: float = Field(15.0, ge=0.05, description="Length of each betting window.")
    reveal_ms: int = Field(800, ge=0, description="Pause before each card is turned.")
    result_ms: int = Field(2000, ge=0, description="Pause on the result before the next round.")
    squeeze_seconds: float = Field(
        10.0,
        ge=1.0,
        le=120.0,
        description="Face down: how long a player squeezes a card before it turns itself.",
    )
    dealing: Dealing = Field(
        "face-up", description="face-up or face-down: the default for every table."
    )
    studio_streams: Annotated[str | None, NoDecode] = Field(
        None,
        description="Video of studio tables, comma-separated TABLE=URL (an HLS playlist, "
        "http(s) or a path on this server), e.g. standard-studio=https://cdn.example/t1.m3u8.",
    )
    locale: Literal["en", "id"] = Field(
        "en",
        description="en or id: the house's language (baccarat serve reads LANG when not given). "
        "id deals rupiah tables by default and shows visitors the page in Bahasa Indonesia.",
    )
    tables: Annotated[tuple[InstanceOf[TableSettings], ...], NoDecode] = Field(
        "",
        validate_default=True,
        description="Rule sets (names or TOML files), comma-separated: one table each; "
        "':face-down'/':face-up' choose its dealing, ':studio' a studio's shoe "
        f"(default: {','.join(DEFAULT_TABLES)}; -idr ones with --locale id).",
    )
    studio_robot: str | None = Field(
        None,
        description="A studio table the dealer robot deals, for demos (an operator account "
        "'studio-robot' with a password kept in memory, and a device token of its own).",
    )
    demo_credit: int | None = Field(
        None,
        ge=0,
        description="Credit of a new guest player, in minor units (default: 10,000.00 in "
        "a currency of cents, Rp 100.000.000 at rupiah tables).",
    )
    guests: Annotated[bool, BeforeValidator(_on_off)] = Field(
        True, description="on or off: whether visitors may play as guests (demo money)."
    )
    max_deposit: int = Field(
        DEFAULT_MAX_DEPOSIT,
        ge=1,
        le=MONEY_LIMIT,
        description="The most one deposit may bring, in minor units.",
    )
    max_balance: int = Field(
        DEFAULT_MAX_BALANCE,
        ge=1,
        le=MONEY_LIMIT,
        description="The most a deposit may take a balance to, in minor units.",
    )
    static: Path | None = Field(
        None, description="Folder served at /static (default: the browser table)."
    )
    seed_key_file: Path | None = Field(
        None,
        description="Key file sealing the shoe seeds at rest (default: 'seed-keys' in the user "
        "config directory, created 0600 at first start); $BACCARAT_SEED_KEY overrides it.",
    )
    audit_anchor: Path | None = Field(
        None,
        description="File the audit chain's head is appended to, outside the database (default: "
        "'audit-anchor.jsonl' beside the default database; none with --db).",
    )
    audit_anchor_seconds: float = Field(
        1.0,
        ge=0.1,
        le=60,
        description="A new audit record is anchored within this many seconds (the window in "
        "which records cut from the end of a copied log go unseen).",
    )
    rate_limit: tuple[str, ...] = Field(
        (),
        description="NAME=RATE to change a rate limit (e.g. login_per_address=30/minute;300/hour; "
        "names in docs/security.md), or 'off'. Repeatable.",
    )
    rate_limit_delay: float = Field(
        1.0, ge=0, le=60, description="Seconds a refused (429) request waits before its answer."
    )
    rate_limit_storage: str | None = Field(
        None,
        description="Where rate limits count: memory:// (default; a cluster's Redis with "
        "--redis) or redis://HOST:PORT to share the counts between servers.",
    )
    forwarded_allow_ips: str | None = Field(
        None,
        description="Proxies trusted to set X-Forwarded-For (comma-separated, or '*'); by "
        "default the client address is the socket peer's.",
    )
    allowed_hosts: str | None = Field(
        None,
        description="Host names the server answers to, comma-separated ('casino.example, "
        "*.casino.example'); a request naming another Host gets 400. Default: any.",
    )
    head_timeout_seconds: float = Field(
        10.0,
        ge=0.5,
        le=300,
        description="A request head must be whole this long after its connection opened or "
        "its previous answer was sent; a slower peer is disconnected.",
    )
    max_connections_per_address: int = Field(
        256,
        ge=1,
        le=1_000_000,
        description="Open HTTP connections one client address may hold (a proxy named in "
        "--forwarded-allow-ips is not capped).",
    )
    max_body_bytes: int = Field(
        65_536, ge=1024, description="Largest request body accepted (413 past it)."
    )
    metrics_bind: str | None = Field(
        None, description="Serve the Prometheus metrics on HOST:PORT, a listener of their own."
    )
    metrics_token: str | None = Field(
        None,
        description="Serve /metrics on the public port to this bearer token (set it in the "
        "environment, BACCARAT_METRICS_TOKEN: a command line is visible to every user). "
        "Neither: no metrics.",
    )
    password_workers: int = Field(
        0, ge=0, description="Threads hashing passwords (0: half the cores)."
    )
    password_cpu_share: float = Field(
        0.25,
        ge=0.01,
        le=1.0,
        description="The most of a core each hashing thread may use: a login flood then "
        "slows logins, not the tables.",
    )
    idle_minutes: float = Field(
        30.0, ge=1, description="A token (a login's or a guest's) unused this long is over."
    )
    session_hours: float = Field(
        12.0, ge=0.1, description="A login's token is over this long after the login."
    )
    guest_hours: float = Field(
        24.0, ge=0.1, description="A guest's token is over this long after it was made."
    )
    redis: str | None = Field(
        None,
        description="redis://HOST:PORT/DB: run as one node of a cluster (needs --db "
        "postgresql://...): events, presence and rate limits shared through it.",
    )
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
        description="This node's name in the cluster (default: host name and pid).",
    )
    workers: int = Field(
        1,
        ge=1,
        le=64,
        description="Processes serving on the one port (above 1: PostgreSQL and Redis).",
    )
    lease_ms: int = Field(
        3000,
        ge=300,
        le=60_000,
        description="How long a node's hold on a table outlives its last renewal.",
    )
    virtual_clock: Annotated[bool, BeforeValidator(_on_off)] = Field(
        False,
        description="Tests only: time stands still until POST /api/test/clock advances it "
        f"(refused unless {TESTING_VARIABLE}=1, on a loopback host, in one process).",
    )

    @field_validator("tables", mode="before")
    @classmethod
    def _tables_from_text(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str):  # already the tables (from Python)
            if not value:
                raise ValueError("--tables names no rule set")
            return value
        if value == "":  # not given: the house's locale decides
            value = ",".join(LOCALE_TABLES[info.data.get("locale", "en")])
        specs = [part.strip() for part in value.split(",") if part.strip()]
        if not specs:
            raise ValueError("--tables names no rule set")
        # A pacing field that failed has its own error: its default stands in here.
        pacing = {
            name: info.data.get(name, cls.model_fields[name].default)
            for name in ("betting_seconds", "reveal_ms", "result_ms", "dealing", "squeeze_seconds")
        }
        streams: dict[str, str] = {}
        for entry in str(info.data.get("studio_streams") or "").split(","):
            if not entry.strip():
                continue
            table_id, equals, url = entry.strip().partition("=")
            if not equals or not table_id.strip() or not url.strip():
                raise ValueError(f"--studio-streams wants TABLE=URL, not {entry.strip()!r}")
            stream_source(url.strip())  # one the page's policy can name (hygiene.page_csp)
            streams[table_id.strip()] = url.strip()
        return tables_from(
            specs,
            betting_ms=max(1, round(pacing["betting_seconds"] * 1000)),
            reveal_ms=pacing["reveal_ms"],
            result_ms=pacing["result_ms"],
            dealing=pacing["dealing"],
            squeeze_ms=round(pacing["squeeze_seconds"] * 1000),
            streams=streams,
        )

    @field_validator("studio_robot")
    @classmethod
    def _robot_deals_a_studio_table(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        tables = info.data.get("tables") or ()
        if not any(t.table_id == value and t.studio for t in tables):
            studios = ", ".join(t.table_id for t in tables if t.studio) or "none"
            raise ValueError(
                f"--studio-robot names a studio table of --tables ({studios}), not {value!r}"
            )
        return value

    @field_validator("rate_limit")
    @classmethod
    def _rates_named(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for entry in value:
            name, equals, _ = entry.partition("=")
            if entry.strip().lower() != "off" and (not equals or _rate_name(name) not in RATES):
                raise ValueError(
                    f"--rate-limit wants NAME=RATE with NAME one of {', '.join(RATES)}, or 'off'"
                )
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts_named(cls, value: str | None) -> str | None:
        # An empty list would answer every host: a typo must not turn the check off.
        if value is not None and not any(name.strip() for name in value.split(",")):
            raise ValueError("--allowed-hosts names no host (leave it out to answer any)")
        return value

    @field_validator("metrics_bind")
    @classmethod
    def _bind_is_host_and_port(cls, value: str | None) -> str | None:
        if value:
            parse_bind(value)  # a ValueError that names the option
        return value

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
        if self.demo_credit is None:
            # A guest's demo credit in the tables' money: $10,000.00, or Rp 100.000.000 where a
            # table counts whole rupiah (the same number of rupiah, Rp 1.000.000, would not
            # cover a rupiah table's one main bet at its maximum).
            digits = load_ruleset(self.tables[0].ruleset).minor_unit if self.tables else 2
            credit = DEMO_CREDIT_CENTS if digits else DEMO_CREDIT_WHOLE
            self._guest_credit = min(credit, self.max_balance)
        else:
            self._guest_credit = self.demo_credit
        if self._guest_credit > self.max_balance:
            raise ValueError(
                f"--demo-credit ({self._guest_credit}) cannot exceed --max-balance ({self.max_balance})"
            )
        return self

    @model_validator(mode="after")
    def _rate_limits_valid(self) -> Self:
        self.rate_limits  # noqa: B018  (a ValueError for a rate or a storage URI)
        return self

    def virtual_clock_refusal(self, environ: Mapping[str, str]) -> str | None:
        """Why this server may not run on a virtual clock, in one line (``None``: it may, or
        it does not ask to). Only a test may stop time: a production start is refused, and
        so is anything that would let others see a stopped clock (an address beyond this
        machine) or need the database's clock (several processes or nodes).

        >>> Settings(virtual_clock="on").virtual_clock_refusal({"BACCARAT_TESTING": "1"})
        >>> Settings(virtual_clock="on").virtual_clock_refusal({})
        '--virtual-clock on is for tests only (BACCARAT_TESTING=1)'
        >>> Settings(virtual_clock="on", host="0.0.0.0").virtual_clock_refusal({"BACCARAT_TESTING": "1"})
        "--virtual-clock on serves only a loopback host, not '0.0.0.0'"
        """
        if not self.virtual_clock:
            return None
        if environ.get(TESTING_VARIABLE) != "1":
            return f"--virtual-clock on is for tests only ({TESTING_VARIABLE}=1)"
        if not _is_loopback(self.host):
            return f"--virtual-clock on serves only a loopback host, not {self.host!r}"
        if self.workers != 1 or self.redis is not None:
            return "--virtual-clock on runs one process alone (no --workers, no --redis)"
        return None

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

    def on_this_machine(self) -> Settings:
        """These settings with each default that depends on the machine filled in: the
        database (a SQLite file in the user data directory), the audit anchor beside it (none
        with ``db`` given), the browser table's files, and this node's name (host and pid).

        >>> settings = Settings(db="sqlite:///x.db").on_this_machine()
        >>> settings.static == default_static_dir(), settings.audit_anchor, settings.node_id
        (True, None, None)
        """
        machine: dict[str, Any] = {}
        if self.db is None:
            machine["db"] = self.database_url
            if self.audit_anchor is None:
                machine["audit_anchor"] = default_anchor_file()
        if self.static is None:
            machine["static"] = default_static_dir()
        if self.redis is not None and self.node_id is None:
            machine["node_id"] = f"{socket.gethostname()}-{os.getpid()}"
        return self.model_copy(update=machine)

    @property
    def database_url(self) -> str:
        """``db``, or the SQLite file in the user data directory."""
        if self.db is not None:
            return self.db
        from baccarat.store import default_database_url

        return default_database_url()

    @property
    def session_idle_ms(self) -> int:
        """A token unused this long is over."""
        return round(self.idle_minutes * 60_000)

    @property
    def session_lifetime_ms(self) -> int:
        """A login's token is over this long after it was issued."""
        return round(self.session_hours * 3_600_000)

    @property
    def guest_lifetime_ms(self) -> int:
        """A guest's token is over this long after it was issued."""
        return round(self.guest_hours * 3_600_000)

    @property
    def host_names(self) -> tuple[str, ...] | None:
        """``allowed_hosts`` as a list (``None``: any host)."""
        if self.allowed_hosts is None:
            return None
        return tuple(name.strip() for name in self.allowed_hosts.split(",") if name.strip())

    @property
    def guest_credit(self) -> int:
        """A new guest's demo credit: ``demo_credit``, or the default in the tables' money."""
        return self._guest_credit

    @property
    def money_bounds(self) -> MoneyBounds:
        """The cashier's bounds (``max_deposit``, ``max_balance``)."""
        return MoneyBounds(self.max_deposit, self.max_balance)

    @property
    def rate_limits(self) -> RateLimitSettings:
        """The rate limits of logins, registrations and guests (``baccarat.server.ratelimit``):
        ``rate_limit``'s changes, counted in ``rate_limit_storage``, or a cluster's Redis.

        >>> Settings(rate_limit=("guests_per_address=5/second",)).rate_limits.guests_per_address
        '5/second'
        """
        rates: dict[str, str] = {}
        enabled = True
        for entry in self.rate_limit:
            if entry.strip().lower() == "off":
                enabled = False
                continue
            name, _, rate = entry.partition("=")
            rates[_rate_name(name)] = rate.strip()
        # A cluster counts its rate limits together, in its Redis, unless told otherwise, under
        # its own prefix: two clusters sharing one Redis keep their counts apart.
        storage = self.rate_limit_storage or self.redis or "memory://"
        return RateLimitSettings(
            storage=storage,
            key_prefix=self.redis_prefix,
            enabled=enabled,
            refusal_delay_s=self.rate_limit_delay,
        ).with_rates(**rates)

    @property
    def metrics_address(self) -> tuple[str, int] | None:
        """``metrics_bind`` as ``(host, port)``, if any."""
        return parse_bind(self.metrics_bind) if self.metrics_bind else None

    @property
    def cluster(self) -> ClusterConfig | None:
        """How this process takes part in a cluster (``None``: alone, on any database)."""
        if self.redis is None:
            return None
        node_id = self.node_id or f"{socket.gethostname()}-{os.getpid()}"
        return ClusterConfig(self.redis, node_id, self.redis_prefix, self.lease_ms)


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """One node of several on one PostgreSQL and one Redis (``docs/deployment.md``), as
    ``Settings.cluster`` gathers it: ``redis``, ``node_id``, ``redis_prefix``, ``lease_ms``."""

    redis_url: str
    node_id: str
    #: Prefix of every Redis key (several clusters, or tests, can share one Redis).
    prefix: str
    #: A dealer holds its table this long past its last renewal (renewed every quarter).
    lease_ms: int


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: only "localhost" is known to stay on this machine
        return False


def _rate_name(name: str) -> str:
    return name.strip().replace("-", "_")


def _problem(error: ErrorDetails) -> str:
    """One validation error as a sentence about the option (or variable) that caused it."""
    message = error["msg"].removeprefix("Value error, ")
    if not error["loc"]:
        return message
    name = str(error["loc"][0])
    option = f"--{name.replace('_', '-')}"
    where = f"the option or {ENV_PREFIX}{name.upper()}"
    if error["type"] == "value_error":  # a validator's own sentence, which may name the option
        return f"{message if message.startswith(option) else f'{option}: {message}'} ({where})"
    message = re.sub(r"^(Input|String|Value) should", "must", message)
    return f"{option} {message}, not {error['input']!r} ({where})"


def default_static_dir() -> Path:
    """The browser table's files: ``baccarat.web``'s ``static``, installed with the package."""
    return Path(str(resources.files("baccarat.web"))) / "static"


def default_anchor_file() -> Path:
    """``audit-anchor.jsonl`` in the user data directory, beside the default database."""
    import platformdirs

    return Path(platformdirs.user_data_dir("baccarat", appauthor=False)) / "audit-anchor.jsonl"

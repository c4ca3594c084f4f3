"""The database schema as SQLAlchemy Core tables (the migrations create exactly these).

Money columns are ``BigInteger`` minor units; instants are ``BigInteger`` milliseconds since
the Unix epoch (UTC), which compare the same way on SQLite and PostgreSQL.

The ledger is append-only: ``ledger_transactions`` and ``ledger_entries`` are only ever
inserted. ``accounts.balance`` is a cache of the sum of the account's entries, updated in
the same transaction as the entries and checked by ``baccarat ledger check``. A bet ends in
exactly one ``bet_outcomes`` row (its primary key is the bet's id): settled, voided or undone.

>>> {"accounts", "ledger_entries", "bets", "bet_outcomes"} <= set(metadata.tables)
True
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from baccarat.store.money import BALANCE_LIMIT, MONEY_LIMIT, money_check

__all__ = [
    "accounts",
    "audit_log",
    "auth_sessions",
    "bet_outcomes",
    "bets",
    "device_tokens",
    "game_tables",
    "idempotency_keys",
    "integrity_alerts",
    "launch_requests",
    "launch_tokens",
    "ledger_entries",
    "ledger_transactions",
    "logins",
    "metadata",
    "operator_limits",
    "operator_players",
    "operators",
    "player_controls",
    "player_seeds",
    "player_status",
    "players",
    "rounds",
    "server_secrets",
    "shift_reports",
    "shifts",
    "shoes",
    "staff_sessions",
    "staff_users",
    "studio_desks",
    "studio_reads",
    "table_controls",
    "table_leases",
    "table_limits",
    "wallet_transactions",
    "ws_tickets",
]

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

accounts = Table(
    "accounts",
    metadata,
    # "world", "player:<id>", "stake:<table>", "house:<table>", "demo-bank"; a guest's
    # "player:<id>" is of kind "demo".
    Column("id", String(100), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    # Moved by every posting to the account (migration 0007): a bet writer's cached stakes
    # of the player are good while it is unchanged (baccarat.store.stakes_cache).
    Column("version", BigInteger, nullable=False, server_default="0"),
    # Money columns hold only integers in range (baccarat.store.money): never a REAL.
    CheckConstraint(money_check("balance", BALANCE_LIMIT), name="ck_accounts_balance"),
)

ledger_transactions = Table(
    "ledger_transactions",
    metadata,
    Column("id", String(32), primary_key=True),
    # deposit, bet, undo, settle, void, correction
    Column("kind", String(16), nullable=False),
    Column("round_id", Integer, nullable=True),
    Column("memo", String(200), nullable=True),
    Column("created_at", BigInteger, nullable=False),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("txn_id", String(32), ForeignKey("ledger_transactions.id"), nullable=False),
    Column("account_id", String(100), ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    CheckConstraint(money_check("amount", MONEY_LIMIT), name="ck_ledger_entries_amount"),
    Index(None, "txn_id"),
    Index(None, "account_id"),
)

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    # SHA-256 of the bearer token: the token itself is never stored.
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("account_id", String(100), ForeignKey("accounts.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    # A guest: plays with demo money (account kind "demo", funded by "demo-bank").
    Column("demo", Boolean, nullable=False, server_default=false()),
)

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("ruleset", String(200), nullable=False),
    Column("settings", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    # Set when a server starts without this table; no round of it may then stay in play.
    Column("retired_at", BigInteger, nullable=True),
)

shoes = Table(
    "shoes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(64), ForeignKey("game_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("algorithm", String(40), nullable=False),
    Column("decks", Integer, nullable=False),
    # The exact rules of this shoe (RuleSet.to_toml): a restart settles by them.
    Column("ruleset_toml", Text, nullable=False),
    Column("commitment", String(64), nullable=False),
    # The seed in hex once the shoe has ended (public then); '' while it is in play.
    Column("server_seed", String(64), nullable=False),
    # While in play: the seed sealed with the operator's key (baccarat.store.seal), never
    # in the clear, so a copy of the database does not give the order away. NULL after the end.
    Column("sealed_seed", String(128), nullable=True),
    # 'fair' (the server's seeded shoe) or 'studio' (a physical shoe: no seed, no commitment
    # (''), its shuffle certificate instead, and every card read in studio_reads).
    Column("kind", String(8), nullable=False, server_default="fair"),
    Column("certificate", Text, nullable=True),
    # Fixed when the shoe's first betting window closes.
    Column("client_seed", String(64), nullable=True),
    Column("digest", String(64), nullable=True),
    Column("status", String(8), nullable=False),
    Column("started_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
    Index(None, "table_id", "status"),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("game_tables.id"), nullable=False),
    Column("shoe_id", String(32), ForeignKey("shoes.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("phase", String(8), nullable=False),
    Column("opened_at", BigInteger, nullable=False),
    Column("closes_at", BigInteger, nullable=False),
    Column("closed_at", BigInteger, nullable=True),
    # Card codes in deal order, stored before the first is revealed.
    Column("cards", String(24), nullable=True),
    Column("dealt_at", BigInteger, nullable=True),
    # The cards shown so far: bit i once the card dealt i-th has been turned (every view of
    # the round shows only those, baccarat.table.reveal.round_face; all bits: result announced).
    Column("revealed", Integer, nullable=False, server_default="0"),
    Column("void_reason", String(200), nullable=True),
    Column("finished_at", BigInteger, nullable=True),
    # Every bet's limits the round opened under, when an operator set the table's
    # (baccarat.table.limits.limits_text); NULL: its shoe's rule set's own.
    Column("limits", Text, nullable=True),
    Index(None, "table_id", "phase"),
    Index(None, "shoe_id"),
)

bets = Table(
    "bets",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False),
    Column("table_id", String(64), ForeignKey("game_tables.id"), nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("spot", String(32), nullable=False),
    Column("stake", BigInteger, nullable=False),
    Column("txn_id", String(32), ForeignKey("ledger_transactions.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    CheckConstraint(money_check("stake", MONEY_LIMIT), name="ck_bets_stake"),
    Index(None, "round_id", "player_id"),
    Index(None, "player_id", "table_id", "round_id"),
)

bet_outcomes = Table(
    "bet_outcomes",
    metadata,
    Column("bet_id", Integer, ForeignKey("bets.id"), primary_key=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False),
    # settled, voided, undone
    Column("kind", String(8), nullable=False),
    Column("event", String(32), nullable=True),
    Column("result", String(8), nullable=True),
    Column("returned", BigInteger, nullable=False),
    Column("txn_id", String(32), ForeignKey("ledger_transactions.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    CheckConstraint(money_check("returned", MONEY_LIMIT), name="ck_bet_outcomes_returned"),
    Index(None, "round_id"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("response", Text, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

player_seeds = Table(
    "player_seeds",
    metadata,
    Column("shoe_id", String(32), ForeignKey("shoes.id"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)


# Migration 0002: registered logins, expiring sessions, responsible-gaming state,
# the audit log.

logins = Table(
    "logins",
    metadata,
    # A registered player: the username (lower case) and the argon2id hash of the password.
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("username", String(40), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("last_login_at", BigInteger, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    # Wrong passwords for this username since its last good login (told at the next one).
    Column("failed_logins", Integer, nullable=False, server_default="0"),
)

auth_sessions = Table(
    "auth_sessions",
    metadata,
    # SHA-256 of the session's bearer token, as for guests: the token is never stored.
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
    # The last use; the session idles out this long after it. Left out, 0: idle at once.
    Column("last_seen_at", BigInteger, nullable=False, server_default="0"),
    Index(None, "player_id"),
)

ws_tickets = Table(
    "ws_tickets",
    metadata,
    # A single-use ticket that opens the WebSocket feed as a session's player, so that no
    # bearer token is ever put in a URL. SHA-256 of the ticket, as for tokens.
    Column("ticket_hash", String(64), primary_key=True),
    Column("session_hash", String(64), ForeignKey("auth_sessions.token_hash"), nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Index(None, "expires_at"),
)

player_controls = Table(
    "player_controls",
    metadata,
    # JSON of baccarat.responsible's LimitSettings, Breaks, SessionSettings and Session.
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("limits", Text, nullable=False),
    Column("breaks", Text, nullable=False),
    Column("session_settings", Text, nullable=False),
    Column("session", Text, nullable=True),
    Column("updated_at", BigInteger, nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    # Append-only and hash-chained (baccarat.audit): never updated, never deleted.
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("time", String(32), nullable=False),
    Column("actor", String(100), nullable=False),
    Column("action", String(40), nullable=False),
    Column("details", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)

table_leases = Table(
    "table_leases",
    metadata,
    # The node dealing a table (``baccarat.store.leases``): only while ``expires_at`` (database
    # clock, ms) is ahead, and only under ``epoch``, which grows at every change of holder.
    Column("table_id", String(64), primary_key=True),
    Column("node_id", String(100), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
)

server_secrets = Table(
    "server_secrets",
    metadata,
    # Keys the server keeps to itself, made at migration: "record_pseudonyms" keys the
    # per-shoe pseudonyms of public shoe records (baccarat.store.pseudonyms).
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)


# Migration 0005: staff (operators, auditors, admins), their sessions, and what they set.

staff_users = Table(
    "staff_users",
    metadata,
    # A member of staff: a username, a role and the argon2id hash of the password.
    Column("id", String(32), primary_key=True),
    Column("username", String(40), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    # Set when an admin disables the account: its sessions end and it cannot log in.
    Column("disabled_at", BigInteger, nullable=True),
    CheckConstraint(
        "role IN ('operator', 'auditor', 'admin', 'dealer')", name="ck_staff_users_role"
    ),
)

staff_sessions = Table(
    "staff_sessions",
    metadata,
    # SHA-256 of a staff bearer token (never the token), apart from the players' sessions,
    # so a staff token opens no player route and a player's token no admin route.
    Column("token_hash", String(64), primary_key=True),
    Column("staff_id", String(32), ForeignKey("staff_users.id"), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
    Column("last_seen_at", BigInteger, nullable=False),
    Index(None, "staff_id"),
)

table_controls = Table(
    "table_controls",
    metadata,
    # What the operators set for a table (``baccarat.store.table_controls``): whether rounds
    # open, the settings waiting for the next shoe, and those applied since the start.
    Column("table_id", String(64), primary_key=True),
    Column("status", String(8), nullable=False),
    Column("pending", Text, nullable=True),
    Column("applied", Text, nullable=True),
    Column("updated_at", BigInteger, nullable=False),
    CheckConstraint("status IN ('open', 'paused', 'closed')", name="ck_table_controls_status"),
)

table_limits = Table(
    "table_limits",
    metadata,
    # The limits an operator set for a table (baccarat.store.table_limits): ``pending`` waits
    # for the next round to open, ``current`` is what the newest round opened under.
    Column("table_id", String(64), primary_key=True),
    Column("pending", Text, nullable=True),
    Column("current", Text, nullable=True),
    Column("updated_at", BigInteger, nullable=False),
)

player_status = Table(
    "player_status",
    metadata,
    # A player an operator locked (no login, sessions ended) or whose account is closed.
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("locked_at", BigInteger, nullable=True),
    Column("closed_at", BigInteger, nullable=True),
    Column("reason", String(200), nullable=True),
    Column("updated_at", BigInteger, nullable=False),
)

operator_limits = Table(
    "operator_limits",
    metadata,
    # The most a player's own limit of a kind and period may be (``responsible.caps``).
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("kind", String(8), primary_key=True),
    Column("period", String(4), primary_key=True),
    Column("amount", BigInteger, nullable=False),
    Column("set_at", BigInteger, nullable=False),
)


# Migration 0006: the integrity monitor's alerts (baccarat.server.integrity_watch).

integrity_alerts = Table(
    "integrity_alerts",
    metadata,
    # One alert of baccarat.integrity.monitor, as raised: append-only.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), nullable=False),
    # "frequency" or "advantage".
    Column("kind", String(16), nullable=False),
    # Unique while open: frequency:shoe:SHOE:EVENT, frequency:cumulative:EVENT,
    # advantage:PLAYER:BET.
    Column("key", String(200), nullable=False),
    # "shoe" or "cumulative" for a frequency; the player for advantage play.
    Column("scope", String(100), nullable=False),
    # The event, or the bet.
    Column("subject", String(100), nullable=False),
    Column("round_id", Integer, nullable=True),
    Column("shoe_id", String(32), nullable=True),
    Column("raised_at", BigInteger, nullable=False),
    # Statistics, not money: the z-score, the p-value and the threshold it passed; the
    # evidence as JSON.
    Column("z", Float, nullable=False),
    Column("p_value", Float, nullable=False),
    Column("alpha", Float, nullable=False),
    Column("detail", Text, nullable=False),
    Index(None, "table_id", "raised_at"),
)


# Migration 0009: studio tables (a person deals from a card-reading shoe).

studio_reads = Table(
    "studio_reads",
    metadata,
    # Every card read from a studio shoe, in order (``seq``), and every read that did not
    # count: an impossible card (it halts the table until a supervisor resolves it) and a
    # misscan typed by hand, which counts once a supervisor confirms it.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("game_tables.id"), nullable=False),
    Column("shoe_id", String(32), ForeignKey("shoes.id"), nullable=False),
    # The device's own id of the read: a retry sends it again and is answered the same.
    Column("scan_id", String(64), nullable=False),
    Column("card", String(3), nullable=False),
    # burn, coup, burned (game before time), dummy; impossible, misscan (not counted yet).
    Column("use", String(12), nullable=False),
    Column("seq", Integer, nullable=True),
    Column("position", String(16), nullable=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=True),
    Column("at", BigInteger, nullable=False),
    # device:<token id> or staff:<username>.
    Column("read_by", String(80), nullable=False),
    Column("reason", String(200), nullable=True),
    # A supervisor's decision on an impossible read or a misscan, and when.
    Column("resolved_by", String(80), nullable=True),
    Column("resolution", String(16), nullable=True),
    Column("resolved_at", BigInteger, nullable=True),
    UniqueConstraint("table_id", "scan_id"),
    Index(None, "shoe_id", "seq"),
)

studio_desks = Table(
    "studio_desks",
    metadata,
    # The dealer seated at a studio table now (their staff username), since when.
    Column("table_id", String(64), primary_key=True),
    Column("dealer", String(40), nullable=False),
    Column("since", BigInteger, nullable=False),
)

device_tokens = Table(
    "device_tokens",
    metadata,
    # A studio shoe's token: SHA-256 of it (never the token), the one table it may push
    # cards to, and when it was revoked.
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("table_id", String(64), nullable=False),
    Column("label", String(80), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("created_by", String(80), nullable=False),
    Column("revoked_at", BigInteger, nullable=True),
)


# Migration 0010: the back office's shifts and the report each hand-over wrote.

shifts = Table(
    "shifts",
    metadata,
    # A shift manager's shift (``baccarat.store.shifts``): opened, then handed over once.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("opened_at", BigInteger, nullable=False),
    Column("opened_by", String(40), nullable=False),
    Column("closed_at", BigInteger, nullable=True),
    Column("closed_by", String(40), nullable=True),
    Column("note", String(500), nullable=True),
    # 1 while the shift is open, NULL once handed over: unique, so that the database itself
    # refuses a second open shift (NULLs never collide, on SQLite or PostgreSQL).
    Column("open_slot", Integer, nullable=True, unique=True),
    CheckConstraint("open_slot = 1", name="ck_shifts_open_slot"),
)

shift_reports = Table(
    "shift_reports",
    metadata,
    # A handed-over shift's figures per table, written in the hand-over's transaction from
    # the settled bets (the ledger's settlements) of [opened_at, closed_at); never changed.
    Column("shift_id", Integer, ForeignKey("shifts.id"), primary_key=True),
    Column("table_id", String(64), primary_key=True),
    Column("rounds_dealt", Integer, nullable=False),
    Column("rounds_voided", Integer, nullable=False),
    Column("alerts", Integer, nullable=False),
    # Real money (registered players) and demo money (guests), apart.
    Column("real_bets", Integer, nullable=False),
    Column("real_turnover", BigInteger, nullable=False),
    Column("real_paid", BigInteger, nullable=False),
    Column("demo_bets", Integer, nullable=False),
    Column("demo_turnover", BigInteger, nullable=False),
    Column("demo_paid", BigInteger, nullable=False),
)


# Migration 0012: provider mode, where an operator's seamless wallet holds its players' money.

operators = Table(
    "operators",
    metadata,
    # A casino operator whose players play here with the operator's wallet
    # (``baccarat.store.operators``). Its shared secret is sealed with the seed keys
    # (``store.seal``): the secret must sign, so it cannot be hashed, and is never plain.
    Column("id", String(40), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("wallet_url", String(500), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("secret_sealed", Text, nullable=False),
    # The secret before the last rotation, still accepted (not used to sign) until then.
    Column("previous_secret_sealed", Text, nullable=True),
    Column("previous_until", BigInteger, nullable=True),
    # A wallet call's timeout.
    Column("timeout_ms", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("disabled_at", BigInteger, nullable=True),
)

operator_players = Table(
    "operator_players",
    metadata,
    # A player of an operator, as launched: the operator's id for them, and ours.
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("operator_id", String(40), ForeignKey("operators.id"), nullable=False),
    Column("external_id", String(100), nullable=False),
    Column("display_name", String(100), nullable=False),
    Column("currency", String(3), nullable=False),
    Column("language", String(8), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    UniqueConstraint("operator_id", "external_id"),
)

launch_tokens = Table(
    "launch_tokens",
    metadata,
    # A launch URL's one-time token: SHA-256 of it (never the token), whom it seats where.
    Column("token_hash", String(64), primary_key=True),
    Column("operator_id", String(40), ForeignKey("operators.id"), nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("table_id", String(64), nullable=True),
    Column("language", String(8), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("used_at", BigInteger, nullable=True),
)

launch_requests = Table(
    "launch_requests",
    metadata,
    # Each signed launch request seen within the replay window, by its signature: a replay
    # of the same request is refused by this key.
    Column("operator_id", String(40), primary_key=True),
    Column("signature", String(64), primary_key=True),
    Column("received_at", BigInteger, nullable=False),
    Index(None, "received_at"),
)

wallet_transactions = Table(
    "wallet_transactions",
    metadata,
    # Every call of an operator's wallet that moves money (``baccarat.store.wallet_calls``):
    # a debit, and the one credit or rollback that ends it (``reference_id``, unique: a
    # debit can never be ended twice). Credits and rollbacks are the outbox: written in the
    # transaction of the settlement or refusal, sent until the wallet answers definitely.
    Column("id", String(40), primary_key=True),
    Column("operator_id", String(40), ForeignKey("operators.id"), nullable=False),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("round_id", Integer, nullable=True),
    Column("table_id", String(64), nullable=True),
    Column("amount", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("reference_id", String(40), nullable=True, unique=True),
    Column("round_closed", Boolean, nullable=False, server_default=false()),
    # debit: pending, confirmed, refused, unknown; credit and rollback: queued, done, failed.
    Column("state", String(12), nullable=False),
    # The ledger transaction of the bets a confirmed debit paid for.
    Column("bet_txn_id", String(32), nullable=True),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_attempt_at", BigInteger, nullable=True),
    Column("last_error", String(500), nullable=True),
    # The wallet's definite answer, as it sent it (JSON).
    Column("answer", Text, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
    CheckConstraint("kind IN ('debit', 'credit', 'rollback')", name="ck_wallet_kind"),
    CheckConstraint(money_check("amount", MONEY_LIMIT), name="ck_wallet_amount"),
    CheckConstraint("amount >= 0", name="ck_wallet_amount_positive"),
    Index(None, "state", "next_attempt_at"),
    Index(None, "operator_id", "created_at"),
    Index(None, "round_id"),
)

"""Staff: operators (pit bosses), auditors (read-only) and admins, and their sessions.

A member of staff is a ``staff_users`` row: a username, a role and the argon2id hash of a
password (``baccarat.passwords``; never the password). Logging in opens a ``staff_sessions``
row keyed by the SHA-256 of a fresh bearer token: the mechanism of a player's session
(``store.session_rows``) in a table of its own, so a staff token is no player's session
and a player's token no staff session, and neither opens the other's routes. A session is
live while not ended, not past its expiry and used within the idle timeout, and while its
member is not disabled; a disabled member's sessions are ended.

>>> sorted(ROLES)
['admin', 'auditor', 'dealer', 'operator']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from baccarat.store.accounts import normalize_username
from baccarat.store.audit_log import append_audit
from baccarat.store.ledger import new_id
from baccarat.store.players import token_hash
from baccarat.store.schema import staff_sessions, staff_users
from baccarat.store.session_rows import SessionRows

__all__ = [
    "ROLES",
    "STAFF_SESSIONS",
    "StaffMember",
    "StaffNameTakenError",
    "StaffSession",
    "audit_staff",
    "create_staff",
    "disable_staff",
    "end_staff_session",
    "find_staff",
    "list_staff",
    "live_staff_session",
    "open_staff_session",
    "set_staff_password",
    "touch_staff_session",
]

#: Every role: ``auditor`` reads, ``operator`` also acts on tables, rounds and players,
#: ``admin`` also manages staff.
ROLES = frozenset({"operator", "auditor", "admin", "dealer"})

#: The staff sessions: ``staff_sessions`` rows, each a member of staff's.
STAFF_SESSIONS = SessionRows(staff_sessions, "staff_id")


class StaffNameTakenError(ValueError):
    """The username belongs to a member of staff already."""


@dataclass(frozen=True, slots=True)
class StaffMember:
    """A member of staff as stored."""

    id: str
    username: str
    role: str
    password_hash: str
    created_at: int
    disabled_at: int | None

    def public(self) -> dict[str, Any]:
        """What the admin API shows of the member (never the hash)."""
        return {
            "id": self.id,
            "username": self.username,
            "role": self.role,
            "created_at": self.created_at,
            "disabled_at": self.disabled_at,
        }


@dataclass(frozen=True, slots=True)
class StaffSession:
    """A live staff session: its member and the hash that names it."""

    staff_id: str
    username: str
    role: str
    token_hash: str
    last_seen_at: int


def _member(row: Any) -> StaffMember:
    disabled = row.disabled_at
    return StaffMember(
        row.id,
        row.username,
        row.role,
        row.password_hash,
        int(row.created_at),
        None if disabled is None else int(disabled),
    )


def create_staff(
    connection: Connection, username: str, role: str, password_hash: str, at: int
) -> StaffMember:
    """A new member of staff; ``ValueError`` for a bad name or role,
    ``StaffNameTakenError`` for a name in use."""
    name = normalize_username(username)
    if role not in ROLES:
        raise ValueError(f"a role is one of {', '.join(sorted(ROLES))}, not {role!r}")
    if find_staff(connection, name) is not None:
        raise StaffNameTakenError(f"the staff username {name!r} is taken")
    staff_id = new_id()
    connection.execute(
        staff_users.insert().values(
            id=staff_id, username=name, role=role, password_hash=password_hash, created_at=at
        )
    )
    return StaffMember(staff_id, name, role, password_hash, at, None)


def set_staff_password(connection: Connection, staff_id: str, password_hash: str, at: int) -> None:
    """Store a member's new password hash and end their sessions (the old password's)."""
    connection.execute(
        update(staff_users).where(staff_users.c.id == staff_id).values(password_hash=password_hash)
    )
    STAFF_SESSIONS.end(connection, at, owner_id=staff_id)


def find_staff(connection: Connection, username: str) -> StaffMember | None:
    """The member of staff named ``username`` (any case, trimmed), disabled or not."""
    name = username.strip().lower()
    row = connection.execute(select(staff_users).where(staff_users.c.username == name)).first()
    return None if row is None else _member(row)


def list_staff(connection: Connection) -> list[StaffMember]:
    """Every member of staff, by username."""
    query = select(staff_users).order_by(staff_users.c.username)
    return [_member(row) for row in connection.execute(query)]


def disable_staff(connection: Connection, staff_id: str, at: int) -> bool:
    """Disable a member and end every session of theirs; ``False`` if disabled already."""
    done = connection.execute(
        update(staff_users)
        .where(staff_users.c.id == staff_id, staff_users.c.disabled_at.is_(None))
        .values(disabled_at=at)
    ).rowcount
    STAFF_SESSIONS.end(connection, at, owner_id=staff_id)
    return bool(done)


def open_staff_session(
    connection: Connection, staff_id: str, at: int, lifetime_ms: int
) -> tuple[str, int]:
    """A fresh staff bearer token valid at most ``lifetime_ms`` (only its hash is kept),
    and its expiry."""
    return STAFF_SESSIONS.open(connection, staff_id, at, lifetime_ms)


def live_staff_session(
    connection: Connection, token: str, now: int, idle_ms: int
) -> StaffSession | None:
    """The live session of a staff ``token`` of a member not disabled, or ``None``."""
    hashed = token_hash(token)
    query = (
        STAFF_SESSIONS.find(hashed, now, idle_ms)
        .join(staff_users, staff_users.c.id == staff_sessions.c.staff_id)
        .add_columns(staff_users.c.username, staff_users.c.role)
        .where(staff_users.c.disabled_at.is_(None))
    )
    row = connection.execute(query).first()
    if row is None:
        return None
    return StaffSession(row.staff_id, row.username, row.role, hashed, int(row.last_seen_at))


def touch_staff_session(connection: Connection, hashed: str, at: int) -> None:
    """Record a use of the staff session at ``at`` (it stays live another idle timeout)."""
    STAFF_SESSIONS.touch(connection, hashed, at)


def end_staff_session(connection: Connection, hashed: str, at: int) -> bool:
    """End the staff session named by its hash; ``False`` if it had ended."""
    return bool(STAFF_SESSIONS.end(connection, at, hashed=hashed))


def audit_staff(
    connection: Connection,
    at: int,
    session: StaffSession,
    action: str,
    reason: str | None,
    details: dict[str, Any],
) -> None:
    """Append a staff action to the audit chain, in the action's own transaction: who
    (``staff:<username>`` and the role), when (the record's time), what and why."""
    body = {"role": session.role, **details}
    if reason is not None:
        body["reason"] = reason
    append_audit(connection, at, f"staff:{session.username}", action, body)

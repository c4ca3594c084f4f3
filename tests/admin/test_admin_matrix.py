"""Every admin route against every kind of caller, read from the app's own OpenAPI document
so that a new route cannot escape: a player's token is refused (403 ``staff_only``), no
token is 401, a staff role the route does not allow is 403 ``role_forbidden``, and the roles
it allows are answered 2xx; every change a member of staff makes is in the audit chain with
who and why. Then bad input on every route: a 4xx, and nothing changed."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from admin_support import PASSWORD, ROLES, Admin, add_staff, running_admin
from sqlalchemy import select

from baccarat.store import Database
from baccarat.store.ledger import Transaction, ensure_accounts, new_id, player_account, post
from baccarat.store.players import create_player, new_token
from baccarat.store.schema import (
    operator_players,
    operators,
    staff_sessions,
    staff_users,
    wallet_transactions,
)


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("matrix"))


@dataclass
class Req:
    path: str
    json: dict[str, Any] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    #: A token of its own (a logout ends the session it is sent with).
    token: str | None = None


Sample = Callable[[Admin, str], Req]
READ, ACT, ADMIN = {"auditor", "operator", "admin"}, {"operator", "admin"}, {"admin"}
#: Anyone of staff, a studio's dealer too: their own session.
SELF = READ | {"dealer"}


def _reason(role: str) -> dict[str, str]:
    return {"reason": f"matrix {role} {uuid.uuid4().hex[:10]}"}


def _shoe(admin: Admin) -> str:
    shoe_id: str = admin.call("GET", "/api/tables/standard").json()["shoe"]["id"]
    return shoe_id


def _guest(admin: Admin) -> str:
    return admin.guest()[0]


def _locked_guest(admin: Admin) -> str:
    player = _guest(admin)
    locked = admin.as_role(
        "admin", "POST", f"/api/admin/players/{player}/lock", json=_reason("setup")
    )
    assert locked.status_code == 200, locked.text
    return player


def _new_staff(admin: Admin) -> str:
    name = f"temp-{uuid.uuid4().hex[:8]}"
    add_staff(admin.db_url, name, "auditor")
    return name


def _relogin(admin: Admin, role: str) -> Req:
    """A logout with a session of its own; for a player or nobody, only the path."""
    if role not in ROLES:
        return Req("/api/admin/logout")
    return Req("/api/admin/logout", token=admin.login(f"staff-{role}")["token"])


_PLAYER: dict[str, str] = {}


def _player(admin: Admin) -> str:
    if "id" not in _PLAYER:
        _PLAYER["id"] = _guest(admin)
    return _PLAYER["id"]


def _open_shift(admin: Admin) -> int:
    """The open shift's id (one is opened if none is)."""
    current = admin.as_role("admin", "GET", "/api/admin/shifts").json()["current"]
    if current is None:
        current = admin.as_role("admin", "POST", "/api/admin/shifts", json={}).json()
    return int(current["id"])


def _no_shift(admin: Admin, request: Req) -> Req:
    """``request``, once no shift is open (the open one handed over)."""
    shift = _open_shift(admin)
    done = admin.as_role("admin", "POST", f"/api/admin/shifts/{shift}/hand-over", json={})
    assert done.status_code == 200, done.text
    return request


#: An operator of provider mode (disabled: a server sends none of its rows), and its player.
OPERATOR = "casino-matrix"
#: A wallet call no operator has.
_NO_CALL = "0" * 32
_OPERATOR: dict[str, str] = {}


def _wallet_call(admin: Admin, state: str) -> str:
    """A credit in ``state`` of the operator's player, with the confirmed debit it ends; both
    posted, so the books stay whole."""
    database = Database(admin.db_url)
    try:
        with database.write() as c:
            if not _OPERATOR:
                c.execute(
                    operators.insert().values(
                        id=OPERATOR, name="Casino", wallet_url="http://127.0.0.1:9/w",
                        currency="IDR", secret_sealed="-", timeout_ms=1000, created_at=0,
                        disabled_at=1,
                    )
                )  # fmt: skip
                ensure_accounts(c, {f"wallet:{OPERATOR}": "wallet"}, 0)
                player = create_player(c, new_token(), 0, 0)
                c.execute(
                    operator_players.insert().values(
                        player_id=player, operator_id=OPERATOR, external_id="p-1",
                        display_name="P", currency="IDR", language="en", created_at=0,
                    )
                )  # fmt: skip
                _OPERATOR["player"] = player
            player, wallet = _OPERATOR["player"], f"wallet:{OPERATOR}"
            debit, credit = new_id(), new_id()
            for call, kind, reference, row_state in (
                (debit, "debit", None, "confirmed"),
                (credit, "credit", debit, state),
            ):
                c.execute(
                    wallet_transactions.insert().values(
                        id=call, operator_id=OPERATOR, player_id=player, kind=kind, amount=100,
                        currency="IDR", reference_id=reference, state=row_state, attempts=1,
                        last_error="reference_not_found: no such bet", created_at=0,
                        updated_at=0,
                    )
                )  # fmt: skip
            there = [(wallet, -100), (player_account(player), 100)]
            back = [(player_account(player), -100), (wallet, 100)]
            post(c, [Transaction("wallet_debit", there), Transaction("wallet_credit", back)], 0)
            return credit
    finally:
        database.dispose()


def _operator(admin: Admin) -> str:
    if not _OPERATOR:
        _wallet_call(admin, "done")
    return OPERATOR


#: For every admin route (but the login): a valid request, and who may make it. Ordered so
#: that the table is open again after its pause and close (the void needs an open round).
SAMPLES: dict[tuple[str, str], tuple[set[str], Sample]] = {
    ("GET", "/api/admin/me"): (SELF, lambda a, r: Req("/api/admin/me")),
    ("GET", "/api/admin/staff"): (READ, lambda a, r: Req("/api/admin/staff")),
    ("POST", "/api/admin/staff"): (
        ADMIN,
        lambda a, r: Req(
            "/api/admin/staff",
            {
                "username": f"new-{uuid.uuid4().hex[:8]}",
                "role": "auditor",
                "password": PASSWORD,
                **_reason(r),
            },
        ),
    ),
    ("POST", "/api/admin/staff/{username}/disable"): (
        ADMIN,
        lambda a, r: Req(f"/api/admin/staff/{_new_staff(a)}/disable", _reason(r)),
    ),
    ("GET", "/api/admin/tables"): (READ, lambda a, r: Req("/api/admin/tables")),
    ("GET", "/api/admin/tables/{table_id}"): (READ, lambda a, r: Req("/api/admin/tables/standard")),
    ("GET", "/api/admin/tables/{table_id}/audience"): (
        READ,
        lambda a, r: Req("/api/admin/tables/standard/audience"),
    ),
    ("GET", "/api/admin/tables/{table_id}/integrity"): (
        READ,
        lambda a, r: Req("/api/admin/tables/standard/integrity"),
    ),
    ("PUT", "/api/admin/tables/{table_id}/next-shoe"): (
        ACT,
        lambda a, r: Req(
            "/api/admin/tables/standard/next-shoe", {"betting_ms": 1500, **_reason(r)}
        ),
    ),
    ("PUT", "/api/admin/tables/{table_id}/limits"): (
        ACT,
        lambda a, r: Req(
            "/api/admin/tables/standard/limits",
            {"min_stake": 100, "max_stake": 1_000_000, "bets": {"tie": 200_000}, **_reason(r)},
        ),
    ),
    ("POST", "/api/admin/tables/{table_id}/new-shoe"): (
        ACT,
        lambda a, r: Req("/api/admin/tables/standard/new-shoe", _reason(r)),
    ),
    ("POST", "/api/admin/tables/{table_id}/pause"): (
        ACT,
        lambda a, r: Req("/api/admin/tables/standard/pause", _reason(r)),
    ),
    ("POST", "/api/admin/tables/{table_id}/close"): (
        ACT,
        lambda a, r: Req("/api/admin/tables/standard/close", _reason(r)),
    ),
    ("POST", "/api/admin/tables/{table_id}/open"): (
        ACT,
        lambda a, r: Req("/api/admin/tables/standard/open", _reason(r)),
    ),
    ("GET", "/api/admin/rounds"): (
        READ,
        lambda a, r: Req("/api/admin/rounds", params={"table_id": "standard", "limit": 5}),
    ),
    ("GET", "/api/admin/rounds/{round_id}"): (
        READ,
        lambda a, r: Req(f"/api/admin/rounds/{a.open_round()}"),
    ),
    ("POST", "/api/admin/rounds/{round_id}/void"): (
        ACT,
        lambda a, r: Req(f"/api/admin/rounds/{a.open_round()}/void", _reason(r)),
    ),
    ("GET", "/api/admin/players"): (
        READ,
        lambda a, r: Req("/api/admin/players", params={"q": _player(a)[:6]}),
    ),
    ("GET", "/api/admin/players/{player_id}"): (
        READ,
        lambda a, r: Req(f"/api/admin/players/{_player(a)}"),
    ),
    ("GET", "/api/admin/players/{player_id}/history"): (
        READ,
        lambda a, r: Req(f"/api/admin/players/{_player(a)}/history"),
    ),
    ("POST", "/api/admin/players/{player_id}/lock"): (
        ACT,
        lambda a, r: Req(f"/api/admin/players/{_guest(a)}/lock", _reason(r)),
    ),
    ("POST", "/api/admin/players/{player_id}/unlock"): (
        ACT,
        lambda a, r: Req(f"/api/admin/players/{_locked_guest(a)}/unlock", _reason(r)),
    ),
    ("POST", "/api/admin/players/{player_id}/close"): (
        ACT,
        lambda a, r: Req(f"/api/admin/players/{_guest(a)}/close", _reason(r)),
    ),
    ("PUT", "/api/admin/players/{player_id}/operator-limits"): (
        ACT,
        lambda a, r: Req(
            f"/api/admin/players/{_player(a)}/operator-limits",
            {"kind": "loss", "period": "24h", "amount": 100_000, **_reason(r)},
        ),
    ),
    ("GET", "/api/admin/shoes"): (READ, lambda a, r: Req("/api/admin/shoes")),
    ("GET", "/api/admin/shoes/{shoe_id}"): (READ, lambda a, r: Req(f"/api/admin/shoes/{_shoe(a)}")),
    ("GET", "/api/admin/audit"): (READ, lambda a, r: Req("/api/admin/audit", params={"limit": 5})),
    ("GET", "/api/admin/audit/verify"): (READ, lambda a, r: Req("/api/admin/audit/verify")),
    ("GET", "/api/admin/audit/anchor"): (READ, lambda a, r: Req("/api/admin/audit/anchor")),
    ("GET", "/api/admin/reports"): (
        READ,
        lambda a, r: Req("/api/admin/reports", params={"money": "all", "format": "csv"}),
    ),
    # Shifts, the monitor and the player reports.
    ("GET", "/api/admin/shifts"): (READ, lambda a, r: Req("/api/admin/shifts")),
    ("POST", "/api/admin/shifts"): (
        ACT,
        lambda a, r: _no_shift(a, Req("/api/admin/shifts", {"note": f"matrix {r}"})),
    ),
    ("GET", "/api/admin/shifts/{shift_id}"): (
        READ,
        lambda a, r: Req(f"/api/admin/shifts/{_open_shift(a)}", params={"format": "csv"}),
    ),
    ("POST", "/api/admin/shifts/{shift_id}/hand-over"): (
        ACT,
        lambda a, r: Req(f"/api/admin/shifts/{_open_shift(a)}/hand-over", {"note": r}),
    ),
    ("GET", "/api/admin/monitor/{table_id}"): (
        READ,
        lambda a, r: Req("/api/admin/monitor/standard"),
    ),
    ("GET", "/api/admin/reports/players"): (
        READ,
        lambda a, r: Req("/api/admin/reports/players", params={"money": "all", "format": "csv"}),
    ),
    ("GET", "/api/admin/reports/top"): (READ, lambda a, r: Req("/api/admin/reports/top")),
    # The operators' wallets (provider mode).
    ("GET", "/api/admin/operators"): (READ, lambda a, r: Req("/api/admin/operators")),
    ("GET", "/api/admin/operators/{operator_id}/outbox"): (
        READ,
        lambda a, r: Req(f"/api/admin/operators/{_operator(a)}/outbox", params={"state": "failed"}),
    ),
    ("GET", "/api/admin/operators/{operator_id}/reconciliation"): (
        READ,
        lambda a, r: Req(
            f"/api/admin/operators/{_operator(a)}/reconciliation",
            params={"since": "1970-01-01", "until": "1970-01-02"},
        ),
    ),
    ("POST", "/api/admin/operators/{operator_id}/outbox/{call_id}/retry"): (
        ADMIN,
        lambda a, r: Req(
            f"/api/admin/operators/{OPERATOR}/outbox/{_wallet_call(a, 'failed')}/retry",
            _reason(r),
        ),
    ),
    ("POST", "/api/admin/logout"): (SELF, _relogin),
}
#: Routes anyone may call (with their own test).
OPEN = {("POST", "/api/admin/login")}


def admin_routes(admin: Admin) -> set[tuple[str, str]]:
    paths = admin.client.app.openapi()["paths"]  # type: ignore[attr-defined]
    return {
        (method.upper(), path)
        for path, operations in paths.items()
        if path.startswith("/api/admin")
        for method in operations
    }


def _send(admin: Admin, method: str, request: Req, token: str | None) -> Any:
    own = token if request.token is None else request.token
    return admin.call(method, request.path, own, json=request.json, params=request.params)


def test_every_admin_route_refuses_players_and_wrong_roles_and_accepts_the_right_ones(
    admin: Admin,
) -> None:
    assert admin_routes(admin) == set(SAMPLES) | OPEN, "a new admin route needs a sample here"
    _, player_token = admin.guest()
    for (method, template), (allowed, sample) in SAMPLES.items():
        where = f"{method} {template}"
        request = sample(admin, "nobody")
        anonymous = admin.call(method, request.path, json=request.json, params=request.params)
        assert anonymous.status_code == 401, where
        refused = admin.call(
            method, request.path, player_token, json=request.json, params=request.params
        )
        assert refused.status_code == 403, where
        assert refused.json()["error"]["code"] == "staff_only", where
        for role in ROLES:
            before = len(admin.audit())
            request = sample(admin, role)
            response = _send(admin, method, request, admin.tokens[role])
            if role not in allowed:
                assert response.status_code == 403, f"{where} as {role}: {response.text}"
                assert response.json()["error"]["code"] == "role_forbidden", where
                continue
            assert 200 <= response.status_code < 300, f"{where} as {role}: {response.text}"
            if method == "GET":
                continue
            # Who, when, what and why: the record of this very request.
            new = admin.audit()[before:]
            actor = f"staff:staff-{role}"
            reason = (request.json or {}).get("reason")
            mine = [
                record
                for record in new
                if record["actor"] == actor
                and (reason is None or f'"reason":"{reason}"' in record["details"])
            ]
            assert mine, f"{where} as {role}: no audit record of {actor} ({reason})"
            assert f'"role":"{role}"' in mine[-1]["details"], where
    assert admin.as_role("auditor", "GET", "/api/admin/audit/verify").json()["ok"] is True


def test_a_staff_token_opens_no_player_route_and_login_needs_staff_credentials(
    admin: Admin,
) -> None:
    token = admin.tokens["admin"]
    assert admin.call("GET", "/api/me", token).status_code == 401
    assert admin.call("GET", "/api/me/limits", token).status_code == 401
    # A player's username and password are no staff login, and a wrong password is 401.
    bad = admin.call(
        "POST", "/api/admin/login", json={"username": "staff-admin", "password": "nope-nope-9"}
    )
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "bad_credentials"
    # The answer that holds a staff token is never stored by a cache.
    good = admin.call(
        "POST", "/api/admin/login", json={"username": "staff-auditor", "password": PASSWORD}
    )
    assert good.headers["cache-control"] == "no-store"
    # Only the token's SHA-256 and the password's argon2id hash are kept.
    token = good.json()["token"]
    database = Database(admin.db_url)
    try:
        with database.read() as connection:
            hashes = set(connection.scalars(select(staff_sessions.c.token_hash)))
            stored = connection.scalar(
                select(staff_users.c.password_hash).where(staff_users.c.username == "staff-auditor")
            )
    finally:
        database.dispose()
    assert hashlib.sha256(token.encode()).hexdigest() in hashes and token not in hashes
    assert stored is not None and stored.startswith("$argon2id$") and PASSWORD not in stored
    assert any(r["action"] == "staff_login_failed" for r in admin.audit()[-2:])


#: For every admin route: requests that are wrong (ids, queries, bodies), sent as an admin.
BAD: dict[tuple[str, str], list[Req]] = {
    ("POST", "/api/admin/login"): [
        Req("/api/admin/login", {"username": "staff-admin"}),
        Req("/api/admin/login", {"username": "a\x00b", "password": "x"}),
    ],
    ("POST", "/api/admin/logout"): [Req("/api/admin/logout", token="not-a-token")],
    ("GET", "/api/admin/me"): [Req("/api/admin/me", token="x" * 300)],
    ("GET", "/api/admin/staff"): [Req("/api/admin/staff", token="")],
    ("POST", "/api/admin/staff"): [
        Req(
            "/api/admin/staff",
            {"username": "ab", "role": "auditor", "password": PASSWORD, "reason": "r"},
        ),
        Req(
            "/api/admin/staff",
            {"username": "fine-name", "role": "king", "password": PASSWORD, "reason": "r"},
        ),
        Req(
            "/api/admin/staff",
            {"username": "fine-name", "role": "auditor", "password": "short", "reason": "r"},
        ),
        Req("/api/admin/staff", {"username": "fine-name", "role": "auditor", "password": PASSWORD}),
    ],
    ("POST", "/api/admin/staff/{username}/disable"): [
        Req("/api/admin/staff/nobody-here/disable", {"reason": "r"}),
        Req("/api/admin/staff/staff-admin/disable", {"reason": "r"}),
        Req("/api/admin/staff/staff-auditor/disable", {}),
    ],
    ("GET", "/api/admin/tables"): [Req("/api/admin/tables", token="Bearer")],
    ("GET", "/api/admin/tables/{table_id}"): [
        Req("/api/admin/tables/nope"),
        Req("/api/admin/tables/a%00b"),
    ],
    ("GET", "/api/admin/tables/{table_id}/audience"): [Req("/api/admin/tables/nope/audience")],
    ("GET", "/api/admin/tables/{table_id}/integrity"): [Req("/api/admin/tables/nope/integrity")],
    ("PUT", "/api/admin/tables/{table_id}/next-shoe"): [
        Req("/api/admin/tables/standard/next-shoe", {"reason": "r"}),
        Req("/api/admin/tables/standard/next-shoe", {"reason": "r", "ruleset": "nope"}),
        Req("/api/admin/tables/standard/next-shoe", {"reason": "r", "betting_ms": 10}),
        Req("/api/admin/tables/standard/next-shoe", {"reason": "r", "betting_ms": 1500.5}),
        Req(
            "/api/admin/tables/standard/next-shoe",
            {"reason": "r", "limits": {"tie": {"min_stake": 9, "max_stake": 1}}},
        ),
        Req(
            "/api/admin/tables/standard/next-shoe",
            {"reason": "r", "limits": {"nope": {"min_stake": 1, "max_stake": 9}}},
        ),
        Req("/api/admin/tables/nope/next-shoe", {"reason": "r", "betting_ms": 2000}),
    ],
    ("PUT", "/api/admin/tables/{table_id}/limits"): [
        Req("/api/admin/tables/standard/limits", {"min_stake": 100, "max_stake": 900}),
        Req("/api/admin/tables/standard/limits", {"reason": "r", "min_stake": 0, "max_stake": 9}),
        Req("/api/admin/tables/standard/limits", {"reason": "r", "min_stake": 9, "max_stake": 1}),
        Req(
            "/api/admin/tables/standard/limits",
            {"reason": "r", "min_stake": 1, "max_stake": 9, "bets": {"nope": 5}},
        ),
        Req("/api/admin/tables/nope/limits", {"reason": "r", "min_stake": 1, "max_stake": 9}),
    ],
    ("POST", "/api/admin/tables/{table_id}/new-shoe"): [
        Req("/api/admin/tables/standard/new-shoe", {}),
        Req("/api/admin/tables/nope/new-shoe", {"reason": "r"}),
    ],
    ("POST", "/api/admin/tables/{table_id}/pause"): [
        Req("/api/admin/tables/standard/pause", {}),
        Req("/api/admin/tables/standard/pause", {"reason": "r", "extra": 1}),
    ],
    ("POST", "/api/admin/tables/{table_id}/close"): [
        Req("/api/admin/tables/standard/close", {"reason": ""}),
        Req("/api/admin/tables/nope/close", {"reason": "r"}),
    ],
    ("POST", "/api/admin/tables/{table_id}/open"): [
        Req("/api/admin/tables/standard/open", {"reason": "x" * 201})
    ],
    ("GET", "/api/admin/rounds"): [
        Req("/api/admin/rounds", params={"limit": 0}),
        Req("/api/admin/rounds", params={"since": "yesterday"}),
        Req("/api/admin/rounds", params={"before_id": 2**40}),
    ],
    ("GET", "/api/admin/rounds/{round_id}"): [
        Req("/api/admin/rounds/0"),
        Req("/api/admin/rounds/99999999"),
    ],
    ("POST", "/api/admin/rounds/{round_id}/void"): [
        Req("/api/admin/rounds/1/void", {}),
        Req("/api/admin/rounds/99999999/void", {"reason": "r"}),
        Req("/api/admin/rounds/2147483648/void", {"reason": "r"}),
    ],
    ("GET", "/api/admin/players"): [
        Req("/api/admin/players"),
        Req("/api/admin/players", params={"q": "a\x01"}),
    ],
    ("GET", "/api/admin/players/{player_id}"): [
        Req("/api/admin/players/ZZ"),
        Req("/api/admin/players/abc123"),
    ],
    ("GET", "/api/admin/players/{player_id}/history"): [
        Req("/api/admin/players/abc123/history"),
        Req("/api/admin/players/abc123/history", params={"per_page": 1000}),
    ],
    ("POST", "/api/admin/players/{player_id}/lock"): [
        Req("/api/admin/players/abc123/lock", {"reason": "r"}),
        Req("/api/admin/players/abc123/lock", {"reason": 5}),
    ],
    ("POST", "/api/admin/players/{player_id}/unlock"): [
        Req("/api/admin/players/abc123/unlock", {"reason": "r"})
    ],
    ("POST", "/api/admin/players/{player_id}/close"): [
        Req("/api/admin/players/abc123/close", None)
    ],
    ("PUT", "/api/admin/players/{player_id}/operator-limits"): [
        Req(
            "/api/admin/players/abc123/operator-limits",
            {"reason": "r", "kind": "loss", "period": "24h", "amount": 5},
        ),
        Req(
            "/api/admin/players/abc123/operator-limits",
            {"reason": "r", "kind": "fun", "period": "24h", "amount": 5},
        ),
        Req(
            "/api/admin/players/abc123/operator-limits",
            {"reason": "r", "kind": "loss", "period": "24h", "amount": -1},
        ),
    ],
    ("GET", "/api/admin/shoes"): [Req("/api/admin/shoes", params={"limit": 51})],
    ("GET", "/api/admin/shoes/{shoe_id}"): [Req("/api/admin/shoes/nope")],
    ("GET", "/api/admin/audit"): [
        Req("/api/admin/audit", params={"after_seq": -1}),
        Req("/api/admin/audit", params={"order": "sideways"}),
        Req("/api/admin/audit", params={"since": "2026-13-01"}),
        Req("/api/admin/audit", params={"since": "2026-02-01", "until": "2026-01-01"}),
    ],
    ("GET", "/api/admin/audit/verify"): [Req("/api/admin/audit/verify", params={"anchor": "zz"})],
    ("GET", "/api/admin/audit/anchor"): [Req("/api/admin/audit/anchor", token="nope")],
    ("GET", "/api/admin/shifts"): [
        Req("/api/admin/shifts", params={"limit": 0}),
        Req("/api/admin/shifts", params={"limit": 101}),
    ],
    ("POST", "/api/admin/shifts"): [
        Req("/api/admin/shifts", {"note": ""}),
        Req("/api/admin/shifts", {"note": "x" * 501}),
        Req("/api/admin/shifts", {"extra": 1}),
    ],
    ("GET", "/api/admin/shifts/{shift_id}"): [
        Req("/api/admin/shifts/0"),
        Req("/api/admin/shifts/99999999"),
        Req("/api/admin/shifts/1", params={"format": "xml"}),
    ],
    ("POST", "/api/admin/shifts/{shift_id}/hand-over"): [
        Req("/api/admin/shifts/99999999/hand-over", {}),
        Req("/api/admin/shifts/0/hand-over", {}),
        Req("/api/admin/shifts/1/hand-over", {"note": 5}),
    ],
    ("GET", "/api/admin/monitor/{table_id}"): [Req("/api/admin/monitor/nope")],
    ("GET", "/api/admin/reports/players"): [
        Req("/api/admin/reports/players", params={"player_id": "ZZ"}),
        Req("/api/admin/reports/players", params={"since": "2026-02-01", "until": "2026-01-01"}),
        Req("/api/admin/reports/players", params={"money": "gold"}),
    ],
    ("GET", "/api/admin/reports/top"): [
        Req("/api/admin/reports/top", params={"limit": 0}),
        Req("/api/admin/reports/top", params={"since": "2026-02-01", "until": "2026-01-01"}),
    ],
    ("GET", "/api/admin/operators"): [Req("/api/admin/operators", token="x" * 300)],
    ("GET", "/api/admin/operators/{operator_id}/outbox"): [
        Req("/api/admin/operators/nobody/outbox"),
        Req("/api/admin/operators/a%00b/outbox"),
        Req(f"/api/admin/operators/{OPERATOR}/outbox", params={"state": "lost"}),
        Req(f"/api/admin/operators/{OPERATOR}/outbox", params={"after": "x:y"}),
    ],
    ("GET", "/api/admin/operators/{operator_id}/reconciliation"): [
        Req("/api/admin/operators/nobody/reconciliation"),
        Req(f"/api/admin/operators/{OPERATOR}/reconciliation", params={"since": "2026-13-01"}),
        Req(
            f"/api/admin/operators/{OPERATOR}/reconciliation",
            params={"since": "2026-02-01", "until": "2026-01-01"},
        ),
        Req(
            f"/api/admin/operators/{OPERATOR}/reconciliation",
            params={"since": "2020-01-01", "until": "2026-01-01"},
        ),
    ],
    ("POST", "/api/admin/operators/{operator_id}/outbox/{call_id}/retry"): [
        Req(f"/api/admin/operators/{OPERATOR}/outbox/{_NO_CALL}/retry", {"reason": "r"}),
        Req(f"/api/admin/operators/nobody/outbox/{_NO_CALL}/retry", {"reason": "r"}),
        Req(f"/api/admin/operators/{OPERATOR}/outbox/ZZ/retry", {"reason": "r"}),
        Req(f"/api/admin/operators/{OPERATOR}/outbox/{_NO_CALL}/retry", {}),
    ],
    ("GET", "/api/admin/reports"): [
        Req("/api/admin/reports", params={"since": "2026-02-01", "until": "2026-01-01"}),
        Req("/api/admin/reports", params={"since": "2020-01-01", "until": "2026-01-01"}),
        Req("/api/admin/reports", params={"money": "gold"}),
        Req("/api/admin/reports", params={"format": "xml"}),
    ],
}


def _state(admin: Admin) -> Any:
    tables = admin.as_role("auditor", "GET", "/api/admin/tables").json()
    staff = admin.as_role("auditor", "GET", "/api/admin/staff").json()
    return tables, staff, len(admin.audit())


def test_bad_input_on_every_admin_route_is_a_4xx_and_changes_nothing(admin: Admin) -> None:
    assert set(BAD) == admin_routes(admin), "a new admin route needs its bad requests here"
    before = _state(admin)
    for (method, template), requests in BAD.items():
        for request in requests:
            response = _send(admin, method, request, admin.tokens["admin"])
            assert 400 <= response.status_code < 500, f"{method} {request}: {response.text}"
            assert "error" in response.json(), f"{method} {template}"
    after = _state(admin)
    assert [t["pending"] for t in after[0]["tables"]] == [t["pending"] for t in before[0]["tables"]]
    assert after[1] == before[1]
    assert after[2] == before[2], "a refused request wrote to the audit log"
    assert admin.ledger_problems() == []


_ = Path  # the fixtures' folders are pytest's

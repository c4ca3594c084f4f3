"""A battery of bad requests against a real server: every one refused with a 4xx, none with a
5xx, no traceback in the server's log, nothing in the database changed, the ledger still sound.

The battery is built from families of bad values (amounts, ids, strings, bodies) crossed with
every route that takes them, so a new route or a new field is one line here.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from server_support import ledger_check, new_player, open_round
from serving import ServerProcess
from sqlalchemy import func, select

from baccarat.refusals import RefusalCode
from baccarat.server.errors import REFUSAL_STATUS
from baccarat.store import Database
from baccarat.store import schema as s

#: Amounts no cashier or bet may accept: negative, zero, past every bound, not integers.
BAD_AMOUNTS: list[Any] = [
    -1,
    0,
    -(2**63),
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    10**30,
    1.5,
    1e18,
    "100",
    "",
    None,
    True,
    [],
    {},
]
#: Amounts JSON can spell but Python's json cannot make from a value: raw body text.
BAD_AMOUNT_TEXT = ["1e309", "-1e309", "NaN", "Infinity", "1" + "0" * 400, "0x10", "1_000"]
#: Ids no round can have.
BAD_IDS = ["0", "-1", "2147483648", "9223372036854775808", "1e3", "1.5", "abc", "%00", "%20"]
#: Strings no name may hold: control characters, NUL, oversized, odd Unicode, traversal.
BAD_NAMES = [
    "a\x00b",
    "\x00",
    "x" * 5000,
    "../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "\u202e\u0000",
    "\ud800",
    "tab\tname",
    "new\nline",
]
#: Bodies that are not what any route takes.
BAD_BODIES: list[bytes] = [
    b"",
    b"{",
    b"[]",
    b"null",
    b'"text"',
    b"\xff\xfe\x00",
    b'{"amount": 1, "amount": }',
    b"{" * 10_000,
    b"[" * 100_000,
    b'{"a":' * 2_000 + b"1" + b"}" * 2_000,
]


@dataclass
class Probe:
    method: str
    path: str
    json_body: Any = None
    content: bytes | None = None
    params: dict[str, str] | None = None
    authed: bool = True
    headers: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        body = self.content[:60] if self.content is not None else repr(self.json_body)[:60]
        return f"{self.method} {self.path[:80]} params={self.params} body={body!r}"


def _key() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


def battery(table: str, round_id: int) -> list[Probe]:
    probes: list[Probe] = []
    money_routes = ["/api/me/deposits", "/api/me/withdrawals"]
    for route in money_routes:
        for amount in BAD_AMOUNTS:
            probes.append(Probe("POST", route, {"amount": amount}, headers=_key()))
        for text in BAD_AMOUNT_TEXT:
            body = f'{{"amount": {text}}}'.encode()
            probes.append(Probe("POST", route, content=body, headers=_key()))
        for body in BAD_BODIES:
            probes.append(Probe("POST", route, content=body, headers=_key()))
        probes.append(Probe("POST", route, {"amount": 100, "extra": 1}, headers=_key()))
        probes.append(Probe("POST", route, {"amount": 100}, authed=False, headers=_key()))
    bets = f"/api/tables/{table}/bets"
    for amount in BAD_AMOUNTS:
        order = {"round_id": round_id, "bets": {"player": amount}}
        probes.append(Probe("POST", bets, order, headers=_key()))
    for text in BAD_AMOUNT_TEXT:
        raw = f'{{"round_id": {round_id}, "bets": {{"player": {text}}}}}'.encode()
        probes.append(Probe("POST", bets, content=raw, headers=_key()))
    for text in BAD_AMOUNT_TEXT + BAD_IDS:
        raw = f'{{"round_id": {json.dumps(text)}, "bets": {{"player": 100}}}}'.encode()
        probes.append(Probe("POST", bets, content=raw, headers=_key()))
        if not text.startswith("%"):
            raw = f'{{"round_id": {text}, "bets": {{"player": 100}}}}'.encode()
            probes.append(Probe("POST", bets, content=raw, headers=_key()))
    for huge in (2**31, 2**31 - 1 + 2, 2**53, 2**53 + 1, 2**63, -(2**31)):
        probes.append(
            Probe("POST", bets, {"round_id": huge, "bets": {"player": 100}}, headers=_key())
        )
        for action in ("rebet", "double"):
            probes.append(Probe("POST", f"{bets}/{action}", {"round_id": huge}, headers=_key()))
        probes.append(
            Probe("DELETE", bets, params={"round_id": str(huge), "last": "true"}, headers=_key())
        )
        probes.append(Probe("DELETE", bets, params={"round_id": str(huge)}, headers=_key()))
    for name in BAD_NAMES:
        probes.append(
            Probe("POST", bets, {"round_id": round_id, "bets": {name: 100}}, headers=_key())
        )
    probes.append(
        Probe("POST", bets, {"round_id": round_id, "bets": {f"b{i}": 1 for i in range(1000)}})
    )
    for body in BAD_BODIES:
        probes.append(Probe("POST", bets, content=body, headers=_key()))
    probes.append(Probe("POST", bets, {"round_id": round_id, "bets": {"player": 100}}))
    probes.append(
        Probe(
            "POST",
            bets,
            {"round_id": round_id, "bets": {"player": 100}},
            headers={"Idempotency-Key": "x" * 5000},
        )
    )
    for name in BAD_NAMES:
        segment = quote(name, safe="", errors="surrogatepass")
        probes.append(Probe("GET", f"/api/tables/{segment}"))
        probes.append(Probe("GET", f"/api/shoes/{segment}"))
        probes.append(Probe("GET", f"/api/rules/{segment}"))
        probes.append(
            Probe(
                "POST",
                f"/api/tables/{segment}/bets",
                {"round_id": round_id, "bets": {"player": 100}},
                headers=_key(),
            )
        )
        probes.append(
            Probe("POST", "/api/accounts", {"username": name, "password": "a" * 12}, authed=False)
        )
        probes.append(
            Probe("POST", "/api/sessions", {"username": name, "password": "a" * 12}, authed=False)
        )
    for text in [*BAD_IDS, "2147483647000", "99999999999999999999"]:
        probes.append(Probe("GET", f"/api/rounds/{text}"))
        probes.append(Probe("GET", "/api/me/history", params={"page": text}))
        probes.append(Probe("GET", "/api/me/history", params={"per_page": text}))
    for body in BAD_BODIES:
        for route in ("/api/accounts", "/api/sessions", "/api/players/seat-status"):
            probes.append(Probe("POST", route, content=body, authed=False))
    for seat in ("", "x" * 65, "\x00" * 65, "a" * 32 + "." + "\ud800" * 32, 2**63, ["x"]):
        for route in ("/api/players", "/api/players/seat-status"):
            probes.append(Probe("POST", route, {"seat_device": seat}, authed=False))
    probes.append(Probe("POST", "/api/accounts", {"username": "okname", "password": "p" * 200_000}))
    limits_bodies: list[Any] = [
        {"loss": {"day": -1}},
        {"loss": {"day": 2**63}},
        {"deposit": {"week": 1.5}},
        {"wager": {"year": 100}},
        {"nonsense": 1},
        [],
    ]
    for limits_body in limits_bodies:
        probes.append(Probe("PUT", "/api/me/limits", limits_body))
    for breaks_body in (
        {"kind": "time_out", "hours": -1},
        {"kind": "time_out", "hours": 2**63},
        {"kind": "forever"},
        {"hours": "1"},
    ):
        probes.append(Probe("POST", "/api/me/breaks", breaks_body))
    for settings in ({"reality_check_minutes": -5}, {"session_limit_minutes": 2**63}, {"x": 1}):
        probes.append(Probe("PUT", "/api/me/session-settings", settings))
    for kind, period in (("loss", "century"), ("\x00", "day"), ("x" * 300, "day")):
        probes.append(Probe("POST", f"/api/me/limits/{quote(kind, safe='')}/{period}/confirm"))
    probes.append(Probe("POST", "/api/shoes/x/seed", {"client_seed": "\x00" * 10}))
    probes.append(Probe("POST", "/api/shoes/x/seed", {"client_seed": "s" * 100_000}))
    probes.append(Probe("POST", "/api/me/deposits", content=b"0" * (10 * 1024 * 1024)))
    probes.append(
        Probe(
            "POST",
            bets,
            content=b'{"round_id": 1, "bets": {"player": 1}, "pad": "' + b"x" * (10 << 20) + b'"}',
            headers=_key(),
        )
    )
    for header in ("Bearer", "Bearer " + "x" * 10_000, "Basic abc", "Bearer \tx", "Bearer a b"):
        probes.append(Probe("GET", "/api/me", authed=False, headers={"Authorization": header}))
    return probes


_COUNTED = (
    s.accounts,
    s.ledger_transactions,
    s.ledger_entries,
    s.players,
    s.logins,
    s.bets,
    s.idempotency_keys,
    s.player_controls,
)


def _row_counts(db_url: str) -> dict[str, int]:
    database = Database(db_url)
    try:
        with database.read() as connection:
            return {
                table.name: int(
                    connection.execute(select(func.count()).select_from(table)).scalar_one()
                )
                for table in _COUNTED
            }
    finally:
        database.dispose()


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("bad-input")
    # On a virtual clock: the battery's round stays open however long the machine takes.
    process = ServerProcess(
        module_db_url, folder, tables="standard", betting_seconds=30.0, virtual_clock=True
    )
    process.start()
    yield process
    process.stop()


def test_battery_is_refused_without_5xx_or_change(
    server: ServerProcess, module_db_url: str
) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)
        round_id = open_round(anonymous, "standard", min_left_ms=1000, timeout=60)
    probes = battery("standard", round_id)
    assert len(probes) >= 250
    before = _row_counts(module_db_url)
    answers: list[tuple[int, Probe, str]] = []
    codes: list[tuple[int, Probe, str]] = []
    with server.client() as client:
        balance = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        for probe in probes:
            headers = dict(probe.headers)
            if probe.authed:
                headers["Authorization"] = f"Bearer {token}"
            try:
                content = probe.content
                if content is None and probe.json_body is not None:
                    # ASCII-escaped, so that lone surrogates travel as JSON escapes.
                    content = json.dumps(probe.json_body).encode()
                if content is not None:
                    headers.setdefault("Content-Type", "application/json")
                response = client.request(
                    probe.method, probe.path, content=content, params=probe.params, headers=headers
                )
            except httpx.HTTPError as error:
                answers.append((0, probe, f"{type(error).__name__}: {error}"))
                continue
            answers.append((response.status_code, probe, response.text[:200]))
            if response.text.startswith('{"error":'):
                codes.append((response.status_code, probe, response.json()["error"]["code"]))
        after_balance = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    wrong = [
        f"{status} {probe.describe()} -> {text}"
        for status, probe, text in answers
        if not 400 <= status < 500
    ]
    assert wrong == [], "\n".join(wrong[:40])
    not_json = [
        probe.describe()
        for status, probe, text in answers
        if status != 413 and not text.startswith('{"error":')
    ]
    assert not_json == [], "\n".join(not_json[:20])
    # Every answer's code is in the one catalogue, with the one status errors.py gives it.
    uncatalogued = [
        f"{status} {probe.describe()} -> {code!r}"
        for status, probe, code in codes
        if code not in {member.value for member in RefusalCode}
        or REFUSAL_STATUS[RefusalCode(code)] != status
    ]
    assert uncatalogued == [], "\n".join(uncatalogued[:20])
    assert len(codes) >= 250
    assert after_balance == balance
    assert _row_counts(module_db_url) == before
    log = server.stderr_text()
    assert "Traceback" not in log, log[-4000:]
    assert ledger_check(module_db_url)["ok"] is True


def test_websocket_garbage_closes_cleanly(server: ServerProcess) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    closes: list[tuple[str, int | None]] = []

    def attempt(path: str, send: list[tuple[bytes | str, bool]]) -> None:
        try:
            with connect(f"{server.ws_url}{path}", open_timeout=5, close_timeout=2) as socket:
                for payload, as_text in send:
                    if isinstance(payload, bytes):
                        socket.send(payload, text=as_text)
                    else:
                        socket.send(payload)
                for _ in range(50):
                    socket.recv(timeout=2)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            closes.append((path[:40], code))
        except TimeoutError:
            closes.append((path[:40], -1))  # still open and quiet: not a crash
        except Exception as error:  # a refused handshake is an HTTP answer: fine if 4xx
            status = getattr(getattr(error, "response", None), "status_code", None)
            closes.append((path[:40], status))

    long_name = "t" * 300
    attempt(f"/ws/tables/{long_name}", [])
    attempt("/ws/tables/" + "é" * 200, [])
    attempt("/ws/tables/a%00b", [])
    attempt("/ws/tables/standard", [(b"\xff\xfe\xfd", True)])
    attempt("/ws/tables/standard", [(b"\x00\x01binary", False)])
    attempt("/ws/tables/standard", [("x" * (2 << 20), True)])
    attempt("/ws/tables/standard", [("{" * 10_000, True), ("null", True), ('{"type": 5}', True)])
    attempt("/ws/tables/standard?token=" + "x" * 5000, [])
    attempt("/ws/tables/standard?ticket=%00", [])
    assert len(closes) == 9
    # The 2 MiB message (the sixth) may be cut by the server's 1009 while the client is still
    # sending it: the client then never reads the close frame (None). The server's side of
    # it is checked below: its log holds no error.
    oversize = 5
    broken = [
        (path, code)
        for index, (path, code) in enumerate(closes)
        if code in (1006, 1011) or (code is None and index != oversize)
    ]
    assert broken == [], closes
    assert all(
        (code is not None and code >= 0) or code == -1 or index == oversize
        for index, (_, code) in enumerate(closes)
    )
    log = server.stderr_text()
    assert "Traceback" not in log, log[-4000:]
    assert "Error" not in log, log[-4000:]

"""The reference wallet's rules, in process (httpx's ASGI transport): idempotency, conflicts,
tombstones, closed bets, signatures and the replay window, faults, the admin and the launch."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import httpx
from inprocess_support import OP, SECRET, InProcess, code, credit, debit, rollback
from inprocess_support import in_process as in_process  # the fixture "wallet": the test's own

from baccarat.wallet.client import wall_ms
from baccarat.wallet.contract import HEADER_OPERATOR, Unknown, canonical, signed_headers, verify


def test_rollback_rules(wallet: InProcess) -> None:
    wallet.player("p", 1_000)
    steps = [
        ("debit", debit("d1", 100), "ok 900"),
        ("rollback", rollback("r1", "d1", 100), "ok 1000"),
        ("rollback", rollback("r1", "d1", 100), "ok 1000"),  # the same rollback: its answer
        ("rollback", rollback("r2", "d1", 100), "ok 1000"),  # another: never refunds twice
        ("credit", credit("c1", "d1", 300), "transaction_rolled_back"),
        ("debit", debit("d1", 100), "ok 900"),  # the debit's own replay: its first answer
        ("debit", debit("d2", 5_000), "insufficient_funds"),
        ("rollback", rollback("r3", "d2", 5_000), "ok 1000"),  # of a refused debit: nothing
        ("credit", credit("c2", "d2", 1), "reference_not_found"),
        ("debit", debit("d3", 200), "ok 800"),
        ("rollback", rollback("r4", "d3", 201), "bad_request"),  # not the debit's amount
        ("credit", credit("c3", "d3", 200, player="q"), "bad_request"),  # not its player
        ("credit", credit("c3", "d3", 400), "ok 1200"),
        ("credit", credit("c3", "d3", 400), "ok 1200"),
        ("credit", credit("c3", "d3", 401), "transaction_conflict"),
        ("credit", credit("c4", "d3", 400), "bet_already_closed"),
        ("rollback", rollback("r5", "d3", 200), "bet_already_closed"),
        ("debit", credit("c3", "d3", 400) | {"transaction_id": "x"}, "bad_request"),
        ("rollback", debit("c3", 400) | {"reference_id": "d3"}, "transaction_conflict"),
    ]
    got = [(call, body["transaction_id"], code(wallet.call(call, body))) for call, body, _ in steps]
    assert got == [(call, body["transaction_id"], want) for call, body, want in steps]
    assert wallet.balance("p") == 1_200


def test_a_blocked_player_still_gets_credits_and_rollbacks(wallet: InProcess) -> None:
    wallet.player("p", 1_000)
    assert code(wallet.call("debit", debit("d1", 100))) == "ok 900"
    assert code(wallet.call("debit", debit("d2", 100))) == "ok 800"
    wallet.player("p", 800, blocked=True)
    assert code(wallet.call("debit", debit("d3", 1))) == "player_blocked"
    assert code(wallet.call("credit", credit("c1", "d1", 150))) == "ok 950"
    assert code(wallet.call("rollback", rollback("r2", "d2", 100))) == "ok 1050"


def _raw_call(wallet: InProcess, body: bytes, headers: dict[str, str]) -> httpx.Response:
    async def send() -> httpx.Response:
        async with httpx.AsyncClient(transport=wallet.transport, base_url="http://wallet") as c:
            return await c.post("/balance", content=body, headers=headers)

    return asyncio.run(send())


def test_the_request_signature_and_the_replay_window(wallet: InProcess) -> None:
    wallet.player("p", 10)
    body = canonical({"player_id": "p", "currency": "USD"})

    def answer(at: int, *, secret: bytes = SECRET, operator: str = OP, raw: bytes = body) -> str:
        response = _raw_call(wallet, raw, signed_headers(operator, secret, at, raw))
        assert response.status_code == 200
        stamp = int(response.headers["X-Timestamp"])  # every answer is signed, refusals too
        assert verify([SECRET], stamp, response.content, response.headers["X-Signature"], wall_ms())
        data = json.loads(response.content)
        return str(data.get("code", data["status"]))

    now = wall_ms()
    assert answer(now) == "ok"
    assert answer(now - 290_000) == "ok"
    assert answer(now + 290_000) == "ok"
    assert answer(now - 310_000) == "invalid_signature"
    assert answer(now + 310_000) == "invalid_signature"
    assert answer(now, secret=b"\x08" * 32) == "invalid_signature"
    assert answer(now, operator="other") == "invalid_signature"
    assert answer(now, raw=b"{not json") == "bad_request"
    assert answer(now, raw=b'{"player_id":"p"}') == "bad_request"
    headers = signed_headers(OP, SECRET, now, body)
    tampered = _raw_call(wallet, body.replace(b"USD", b"IDR"), headers)
    assert json.loads(tampered.content)["code"] == "invalid_signature"
    del headers[HEADER_OPERATOR]
    assert json.loads(_raw_call(wallet, body, headers).content)["code"] == "invalid_signature"


def test_faults_in_process(wallet: InProcess) -> None:
    wallet.player("p", 1_000)
    assert (
        wallet.admin("PUT", "/admin/faults", {"drop_rate": 1.0, "calls": ["credit"]}).status_code
        == 200
    )
    assert code(wallet.call("debit", debit("d1", 100))) == "ok 900"
    dropped = wallet.call("credit", credit("c1", "d1", 50))
    assert isinstance(dropped, Unknown)
    assert "ConnectionAbortedError" in dropped.reason
    assert wallet.balance("p") == 950  # committed before the answer was dropped
    for bad in ({"error_rate": 1.5}, {"latency_ms": -1}, {"calls": ["refund"]}, {"nope": 1}):
        assert wallet.admin("PUT", "/admin/faults", bad).status_code == 422, bad


def test_the_admin_answers_loopback_only(tmp_path: Path) -> None:
    remote = InProcess(tmp_path, client_host="10.1.2.3")
    try:
        for method, path in [
            ("GET", "/admin/players/p"),
            ("GET", "/admin/transactions"),
            ("PUT", "/admin/faults"),
        ]:
            assert remote.admin(method, path, {}).status_code == 403, path
        # The wallet calls themselves are for the game server, wherever it is.
        assert code(remote.call("debit", debit("d1", 1))) == "player_not_found"
    finally:
        remote.close()


def test_admin_players_are_validated(wallet: InProcess) -> None:
    for bad in (
        {"player_id": "p", "balance": -1, "currency": "USD"},
        {"player_id": "p", "balance": 1.5, "currency": "USD"},
        {"player_id": "p", "balance": 1, "currency": "usd"},
        {"player_id": "", "balance": 1, "currency": "USD"},
    ):
        assert wallet.admin("POST", "/admin/players", bad).status_code == 422, bad
    assert wallet.admin("GET", "/admin/players/nobody").status_code == 404


class _Game(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers["Content-Length"]))
        _Game.seen.append((self.path, dict(self.headers.items()), raw))
        answer = json.dumps(
            {"launch_url": "http://game/launch?token=abc", "expires_at": 1}
        ).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_args: Any) -> None:
        pass


def test_launch_signs_a_request_to_the_game(tmp_path: Path) -> None:
    game = ThreadingHTTPServer(("127.0.0.1", 0), _Game)
    thread = threading.Thread(target=game.serve_forever, daemon=True)
    thread.start()
    wallet = InProcess(tmp_path, game_url=f"http://127.0.0.1:{game.server_address[1]}/")
    try:
        wallet.player("p-7", 500)
        asked = {
            "player_id": "p-7",
            "display_name": "Ayu",
            "language": "id",
            "table_id": "standard",
        }
        answer = wallet.admin("POST", "/admin/launch", asked)
        assert (answer.status_code, answer.json()["launch_url"]) == (
            201,
            "http://game/launch?token=abc",
        )
        path, headers, raw = _Game.seen[-1]
        assert path == f"/api/operators/{OP}/launch"
        assert json.loads(raw) == {**asked, "currency": "USD"}
        assert raw == canonical(json.loads(raw))
        assert headers["X-Operator-Id"] == OP
        assert verify([SECRET], int(headers["X-Timestamp"]), raw, headers["X-Signature"], wall_ms())
        assert wallet.admin("POST", "/admin/launch", {"player_id": "ghost"}).status_code == 404
        assert (
            wallet.admin(
                "POST", "/admin/launch", {"player_id": "p-7", "language": "fr"}
            ).status_code
            == 422
        )
    finally:
        wallet.close()
        game.shutdown()
        game.server_close()

"""Kill -9 of the server between two cards of a studio coup, then a restart on the same
database: the round goes on from the cards already read (each shown again, none lost, none
read twice: the device's retry of the last one is answered as before), and settles once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from serving import ServerProcess
from sqlalchemy import func, select

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.passwords import hash_password
from baccarat.rulesets import load_ruleset
from baccarat.settle import settle
from baccarat.store import Database, check_ledger, upgrade
from baccarat.store.device_tokens import issue_device_token
from baccarat.store.schema import bet_outcomes, studio_reads
from baccarat.store.staff import create_staff

TABLE = "standard-studio"
PASSWORD = "Studio-Pass-9"
COUP = "4h 3c 2d 2s 7h"
BETS = {"player": 1_000, "banker": 500}


def _prepare(db_url: str) -> str:
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as c:
            create_staff(c, "dana", "dealer", hash_password(PASSWORD), 0)
            _, token = issue_device_token(c, table_id=TABLE, label="shoe", by="test", at=0)
    finally:
        database.dispose()
    return token


def _db(db_url: str, query: Any) -> Any:
    database = Database(db_url)
    try:
        with database.read() as c:
            return c.execute(query).scalar_one()
    finally:
        database.dispose()


class _Studio:
    def __init__(self, server: ServerProcess, device: str) -> None:
        self.server = server
        self.device = device
        self.dealer = ""

    def log_in(self) -> None:
        with self.server.client() as http:
            login = http.post("/api/admin/login", json={"username": "dana", "password": PASSWORD})
            assert login.status_code == 201, login.text
            self.dealer = login.json()["token"]

    def console(self) -> dict[str, Any]:
        with self.server.client(self.dealer) as http:
            response = http.get(f"/api/studio/tables/{TABLE}")
            assert response.status_code == 200, response.text
            data: dict[str, Any] = response.json()
            return data

    def post(self, action: str, body: Any = None) -> httpx.Response:
        with self.server.client(self.dealer) as http:
            return http.post(f"/api/studio/tables/{TABLE}/{action}", json=body)

    def read(self, card: str, scan_id: str) -> dict[str, Any]:
        with self.server.client(self.device) as http:
            response = http.post(
                f"/api/studio/tables/{TABLE}/cards", json={"card": card, "scan_id": scan_id}
            )
            assert response.status_code == 200, response.text
            data: dict[str, Any] = response.json()
            return data


def test_a_kill_9_between_two_cards_loses_none_and_reads_none_twice(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    device = _prepare(db_url)
    server = ServerProcess(
        db_url, tmp_path, tables="standard:studio", betting_seconds=60, virtual_clock=True
    )
    servers.append(server)
    server.start()
    studio = _Studio(server, device)
    studio.log_in()
    assert studio.post("shoe", {"shuffled_by": "dana"}).status_code == 201
    studio.read("Ac", "s:1")
    studio.read("Kd", "s:2")
    server.settle()
    view = server.advance_until(
        lambda: (lambda c: c if c["round"] and c["round"]["phase"] == "open" else None)(
            studio.console()
        ),
        "a round open for bets",
    )
    round_id = view["round"]["id"]
    with server.client() as anonymous:
        guest = anonymous.post("/api/players").json()
    with server.client(guest["token"]) as player:
        before = player.get("/api/me").json()["balance"]
        bet = player.post(
            f"/api/tables/{TABLE}/bets",
            json={"round_id": round_id, "bets": BETS},
            headers={"Idempotency-Key": "crash-1"},
        )
        assert bet.status_code == 200, bet.text
    assert studio.post("close").status_code == 200
    server.settle()
    cards = COUP.split()
    studio.read(cards[0], "s:3")
    studio.read(cards[1], "s:4")

    server.kill()  # between the second card and the third
    database = Database(db_url)
    try:
        with database.read() as c:
            assert check_ledger(c).ok  # the stakes are held, nothing half-done
    finally:
        database.dispose()

    server.start()
    studio.log_in()
    resumed = studio.console()
    assert resumed["round"]["id"] == round_id and resumed["round"]["phase"] == "closed"
    assert [c["card"] for c in resumed["cards"]] == cards[:2]  # shown again, as before
    assert resumed["next"] == "player_2"
    again = studio.read(cards[1], "s:4")  # the device retries the read it was not answered
    assert again["repeat"] is True and again["position"] == "banker_1"
    for number, card in enumerate(cards[2:], 5):
        studio.read(card, f"s:{number}")
    view = server.advance_until(
        lambda: (lambda r: r if r["phase"] == "settled" else None)(
            server.get(f"/api/rounds/{round_id}")
        ),
        "the round to settle",
    )
    assert view["winner"] == "player"
    expected = settle(BETS, deal(parse_cards(COUP)), load_ruleset("standard")).returned
    with server.client(guest["token"]) as player:
        assert player.get("/api/me").json()["balance"] == before - sum(BETS.values()) + expected
    assert _db(db_url, select(func.count()).select_from(studio_reads)) == 7
    assert _db(db_url, select(func.count()).select_from(bet_outcomes)) == len(BETS)

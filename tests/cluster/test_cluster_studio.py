"""A studio table in a cluster: its dealer console and its shoe talk to the node that does not
deal it (commands through Redis), and kill -9 of the dealing node between two cards hands the
table to the other node, which goes on from the cards already read: none lost, none read twice
(the device's retry is answered as before), the round settled once, the ledger balanced."""

from __future__ import annotations

from typing import Any

from serving import create_staff, wait_until

from baccarat.store import Database
from baccarat.store.device_tokens import issue_device_token

from .cluster_support import (
    Cluster,
    balance,
    dealer_of,
    ledger_check,
    new_player,
    query,
    request,
    round_view,
    wait_round_final,
)

TABLE = "standard-studio"
PASSWORD = "Studio-Pass-9"


def _device(db_url: str) -> str:
    database = Database(db_url)
    try:
        with database.write() as c:
            _, token = issue_device_token(c, table_id=TABLE, label="shoe", by="test", at=0)
    finally:
        database.dispose()
    return token


def test_kill_9_of_the_dealing_node_between_two_cards(cluster: Cluster) -> None:
    create_staff(cluster.db_url, "dana", "dealer", PASSWORD)
    nodes = [
        cluster.node(name, betting_seconds=60.0, tables="standard:studio").start()
        for name in ("n1", "n2")
    ]
    dealing = dealer_of(nodes, TABLE)
    other = nodes[1] if dealing is nodes[0] else nodes[0]
    device = _device(cluster.db_url)
    login = request(
        other, "POST", "/api/admin/login", body={"username": "dana", "password": PASSWORD}
    )
    assert login.status_code == 201, login.text
    dealer = login.json()["token"]

    def act(action: str, body: Any = None) -> Any:
        response = request(other, "POST", f"/api/studio/tables/{TABLE}/{action}", dealer, body)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def read(card: str, scan_id: str) -> dict[str, Any]:
        body = {"card": card, "scan_id": scan_id}
        response = request(other, "POST", f"/api/studio/tables/{TABLE}/cards", device, body)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def console() -> dict[str, Any]:
        response = request(other, "GET", f"/api/studio/tables/{TABLE}", dealer)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    act("shoe", {"shuffled_by": "dana"})
    read("Ac", "s:1")
    read("Kd", "s:2")
    round_id = wait_until(
        lambda: (c := console())["round"] and c["round"]["phase"] == "open" and c["round"]["id"],
        30,
        "a studio round open for bets",
    )
    _, token = new_player(other)
    before = balance(other, token)
    placed = request(
        other,
        "POST",
        f"/api/tables/{TABLE}/bets",
        token,
        {"round_id": round_id, "bets": {"player": 1_000}},
        {"Idempotency-Key": "studio-1"},
    )
    assert placed.status_code == 200, placed.text
    act("close")
    wait_until(lambda: console()["next"] == "player_1", 10, "betting to close")
    read("4h", "s:3")
    read("3c", "s:4")

    dealing.kill()  # between the second card and the third
    assert dealer_of([other], TABLE, timeout=30) is other
    resumed = wait_until(
        lambda: (c := console())["round"] and c["round"]["id"] == round_id and c,
        30,
        "the other node to show the round",
    )
    assert [c["card"] for c in resumed["cards"]] == ["4h", "3c"]
    assert resumed["round"]["phase"] == "closed"
    again = read("3c", "s:4")  # the device retries: answered as before, read once
    assert again["repeat"] is True and again["position"] == "banker_1"
    for number, card in enumerate(["2d", "2s", "7h"], 5):
        read(card, f"s:{number}")
    view = wait_round_final(other, round_id, timeout=30)
    assert view["phase"] == "settled" and view["winner"] == "player"
    assert balance(other, token) == before + 1_000  # Player 1:1
    assert [c["card"] for c in round_view(other, round_id)["cards"]] == [
        "4h",
        "3c",
        "2d",
        "2s",
        "7h",
    ]
    reads = query(
        cluster.database, "SELECT count(*) FROM studio_reads WHERE table_id = %s", [TABLE]
    )
    assert reads == [(7,)]
    assert ledger_check(cluster.db_url)["ok"] is True

"""Staff act through any node of a cluster: a new shoe and a void asked through the node that
does not deal the table reach the node that does (the command goes through Redis), every stake
comes back, both nodes' feeds announce the void, the shoe ends after the voided round and its
record verifies, each action is audited once, and the ledger holds."""

from __future__ import annotations

from serving import create_staff, wait_until

from baccarat.verify import verify_record

from .cluster_support import (
    Cluster,
    balance,
    bet,
    dealer_of,
    ledger_check,
    new_player,
    open_round,
    query,
    request,
    round_view,
)

PASSWORD = "Pit-Boss-Pass-9"


def test_a_void_and_a_new_shoe_through_the_other_node_reach_the_dealer(cluster: Cluster) -> None:
    create_staff(cluster.db_url, "pitboss", "operator", PASSWORD)
    n1 = cluster.node("n1", betting_seconds=30.0).start()
    n2 = cluster.node("n2", betting_seconds=30.0).start()
    dealer = dealer_of([n1, n2])
    other = n2 if dealer is n1 else n1
    watchers = [cluster.watch(dealer, "dealer"), cluster.watch(other, "other")]
    login = request(
        other, "POST", "/api/admin/login", body={"username": "pitboss", "password": PASSWORD}
    )
    assert login.status_code == 201, login.text
    staff = login.json()["token"]
    player, token = new_player(other)
    before = balance(other, token)

    round_id = open_round(other, min_left_ms=10_000, timeout=60)
    assert bet(other, token, round_id, {"banker": 1_000, "tie": 100}).status_code == 200
    shoe = request(other, "GET", "/api/tables/standard").json()["shoe"]["id"]
    asked = request(
        other,
        "POST",
        "/api/admin/tables/standard/new-shoe",
        staff,
        {"reason": "cards worn"},
    )
    assert asked.status_code == 200, asked.text
    voided = request(
        other, "POST", f"/api/admin/rounds/{round_id}/void", staff, {"reason": "misdeal"}
    )
    assert voided.status_code == 200, voided.text
    assert voided.json()["returned"] == {player: 1_100}

    for watcher in watchers:
        announced = watcher.wait_event(
            lambda seen: seen.type == "round_void" and seen.message["round_id"] == round_id,
            30,
            "the void",
        )
        assert announced.message["reason"] == "misdeal"
    assert round_view(dealer, round_id)["phase"] == "voided"
    assert balance(other, token) == before

    # The shoe ends after the voided round, on the dealing node, and its record verifies.
    def ended() -> dict[str, object] | None:
        view: dict[str, object] = request(other, "GET", f"/api/shoes/{shoe}").json()
        return view if view["status"] == "ended" else None

    wait_until(ended, 60, f"shoe {shoe} to end")
    record = request(other, "GET", f"/api/shoes/{shoe}/record").json()
    report = verify_record(record)
    assert report.ok and record["ended_early"] is True and report.not_dealt > 0
    actions = query(
        cluster.database,
        "SELECT action FROM audit_log WHERE actor = %s AND action <> 'staff_login' ORDER BY seq",
        ("staff:pitboss",),
    )
    assert [action for (action,) in actions] == ["table_new_shoe", "round_void"]
    cluster.close()
    report_ledger = ledger_check(cluster.db_url)
    assert report_ledger["ok"] and not report_ledger["problems"]

"""Kill -9 of the dealing node in each phase of a round: another node takes the table over.

n1 starts alone (so it deals the table) with the test pause armed at a phase; n2 and n3 join.
Three guests bet in one round, each through a different node; n1 stops at the phase and is
killed there. Within its lease and a margin a surviving node deals the table: the round is
finished by the crash policy (no stored cards: voided, every stake back; stored cards: resumed
with those cards and settled once), the watchers on the survivors see it under the next seqs,
and the table plays on under its new dealer.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import partial

import pytest

from .cluster_support import (
    AUDIENCE,
    CREDIT,
    LEASE_MS,
    Cluster,
    Watcher,
    balance,
    bet,
    bet_together,
    dealer_of,
    ledger_check,
    new_player,
    outcomes_per_bet,
    query,
    round_view,
    stderr_lines,
    wait_round_final,
)

BETS = [{"player": 1000, "tie": 100}, {"banker": 2500}, {"player_pair": 300, "banker": 700}]
#: From the kill to the table's next event on a surviving node, at most (the lease is 1.5 s).
FAILOVER_LIMIT_S = 5.0


@pytest.mark.parametrize("phase", ["open", "closing", "dealing", "settling"])
def test_a_dealer_killed_in_each_phase_hands_its_table_over(phase: str, cluster: Cluster) -> None:
    n1 = cluster.node("n1", betting_seconds=1.5)
    n1.start(pause_at=phase)
    assert dealer_of([n1]) is n1
    n2, n3 = cluster.start_together(
        [cluster.node("n2", betting_seconds=1.5), cluster.node("n3", betting_seconds=1.5)]
    )
    nodes = [n1, n2, n3]
    assert dealer_of(nodes) is n1
    watchers = [cluster.watch(n2, "n2"), cluster.watch(n3, "n3")]
    players = [new_player(node) for node in nodes]

    round_id = watchers[0].next_round()
    placed = [
        (node, token, stakes) for node, (_, token), stakes in zip(nodes, players, BETS, strict=True)
    ]
    for response in bet_together(round_id, placed):
        assert response.status_code == 200, response.text
    assert n1.wait_for_pause(phase) == round_id

    seen = round_view(n2, round_id)
    shown = [card["card"] for card in seen["cards"]]
    if phase == "dealing":
        assert len(shown) == 2 and n2.get("/api/tables/standard")["cards"] == seen["cards"]
    elif phase == "settling":
        assert 4 <= len(shown) <= 6 and seen["winner"] is not None
    else:
        assert shown == []

    [(stored,)] = query(cluster.database, "SELECT cards FROM rounds WHERE id = %s", (round_id,))
    assert (stored is None) == (phase in ("open", "closing"))
    # Every event n1 made before it dies has reached both survivors: what they see after the
    # kill is then the new dealer's alone, not n1's last broadcast arriving late.
    last_of_n1 = int(n1.get("/api/tables/standard")["seq"])
    for watcher in watchers:
        watcher.wait(partial(caught_up, watcher, last_of_n1), 10, f"n1's event {last_of_n1}")
    killed_at = time.monotonic()
    n1.kill()
    nexts = [
        w.wait_event(
            lambda s: s.type not in AUDIENCE,
            3 * FAILOVER_LIMIT_S,
            "the table's next event",
            killed_at,
        )
        for w in watchers
    ]
    took = [s.at - killed_at for s in nexts]
    print(
        f"failover after kill -9 at {phase} (lease {LEASE_MS} ms): next event "
        f"{nexts[0].type!r} seen on n2 after {took[0]:.2f} s, on n3 after {took[1]:.2f} s"
    )
    assert max(took) <= FAILOVER_LIMIT_S, took
    dealer = dealer_of([n2, n3])
    dealer_id = "n2" if dealer is n2 else "n3"
    other = n3 if dealer is n2 else n2
    assert stderr_lines(dealer, f"baccarat-node: {dealer_id} deals standard (epoch ")

    final = wait_round_final(other, round_id)
    if phase in ("open", "closing"):
        assert final["phase"] == "voided" and final["void_reason"], final
        assert final["cards"] == []
    else:
        assert final["phase"] == "settled", final
        assert [card["card"] for card in final["cards"]][: len(shown)] == shown
    # The cards are the ones n1 stored (none for a voided round): the new dealer drew none.
    assert query(cluster.database, "SELECT cards FROM rounds WHERE id = %s", (round_id,)) == [
        (stored,)
    ]
    # No acknowledged bet lost, none settled twice.
    assert outcomes_per_bet(cluster.database, round_id) == [1] * sum(len(b) for b in BETS)
    for (_, token), stakes in zip(players, BETS, strict=True):
        view = round_view(other, round_id, token)
        assert Counter({item["spot"]: item["stake"] for item in view["bets"]}) == Counter(stakes)
        outcome = "voided" if phase in ("open", "closing") else "settled"
        assert {item["outcome"] for item in view["bets"]} == {outcome}
        returned = sum(item["returned"] for item in view["bets"])
        if outcome == "voided":
            assert returned == sum(stakes.values())
        assert balance(other, token) == CREDIT - sum(stakes.values()) + returned

    # Both survivors saw the round end once, under the same seqs, continuing n1's sequence.
    ends = {"open": "round_void", "closing": "round_void"}.get(phase, "settled")
    for watcher in watchers:  # the store settles the round before its event reaches every node
        watcher.wait_event(
            lambda s: s.type == ends and s.message.get("round_id") == round_id, 10, f"{ends} event"
        )
    after_kill = [
        [(s.seq, s.type) for s in w.round_events(round_id) if s.at > killed_at] for w in watchers
    ]
    assert after_kill[0] == after_kill[1] and after_kill[0][-1][1] == ends, after_kill
    for watcher in watchers:
        terminal = [
            s for s in watcher.round_events(round_id) if s.type in ("settled", "round_void")
        ]
        assert [s.type for s in terminal] == [ends], terminal
        if ends == "settled":
            assert terminal[0].message["winner"] == final["winner"]

    # The table plays on under its new dealer: a bet through the other survivor settles.
    next_id = watchers[0].next_round(min_left_s=0.6, newer_than=round_id)
    assert next_id > round_id
    _, token = players[1]
    response = bet(other, token, next_id, {"player": 500})
    assert response.status_code == 200, response.text
    assert wait_round_final(dealer, next_id)["phase"] == "settled"
    assert outcomes_per_bet(cluster.database, next_id) == [1]
    assert dealer_of([n2, n3]) is dealer
    spans = [w.wait_span(next_id) for w in watchers]
    assert spans[0] == spans[1]
    assert spans[0][0][1] == "round_open" and spans[0][-1][1] == "settled"
    for watcher in watchers:
        watcher.assert_sound()

    cluster.close()  # the ledger as the nodes leave it, checked without them competing for CPU
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]
    assert report["player_money"] + report["house"] + report["in_play"] == len(players) * CREDIT


def caught_up(watcher: Watcher, seq: int) -> bool:
    """Whether ``watcher`` has had every event up to ``seq``."""
    return (watcher.last_seq or 0) >= seq

"""The cluster through a Redis restart and through cut PostgreSQL connections, mid-round.

Redis carries only the events (the money is in PostgreSQL): restarted empty while a round's
cards are being turned, it costs no bet, and every node's WebSocket client gets back in step,
event by event or through a fresh snapshot, with what the database says. PostgreSQL
connections cut under the nodes (``pg_terminate_backend``) cost no bet either, and the table
goes on dealing.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from serving import ServerProcess

from .cluster_support import (
    CREDIT,
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
    tolerating_unavailable,
    wait_round_final,
)

BETS = [{"player": 1000, "tie": 100}, {"banker": 2500}, {"player_pair": 300, "banker": 700}]


def _bets_in_one_round(
    nodes: list[ServerProcess], players: list[tuple[str, str]], watcher: Watcher
) -> int:
    """The next round, with every player's bets, each placed through its own node."""
    round_id = watcher.next_round(min_left_s=0.7)
    placed = [
        (node, token, stakes) for node, (_, token), stakes in zip(nodes, players, BETS, strict=True)
    ]
    for response in bet_together(round_id, placed):
        assert response.status_code == 200, response.text
    return round_id


def _closed(watcher: Watcher, round_id: int) -> None:
    watcher.wait_event(
        lambda s: s.type == "bets_closed" and s.message["round_id"] == round_id,
        10,
        f"round {round_id} to close",
    )


def _nothing_lost(
    cluster: Cluster, node: ServerProcess, players: list[tuple[str, str]], round_id: int
) -> dict[str, Any]:
    """The round finished with each bet settled or voided once, and each balance to match."""
    final = wait_round_final(node, round_id, timeout=30)
    assert outcomes_per_bet(cluster.database, round_id) == [1] * sum(len(b) for b in BETS)
    for (_, token), stakes in zip(players, BETS, strict=True):
        view = round_view(node, round_id, token)
        assert Counter({item["spot"]: item["stake"] for item in view["bets"]}) == Counter(stakes)
        returned = sum(item["returned"] for item in view["bets"])
        if final["phase"] == "voided":
            assert returned == sum(stakes.values())
        assert {item["outcome"] for item in view["bets"]} == {
            "settled" if final["phase"] == "settled" else "voided"
        }
        assert balance(node, token) == CREDIT - sum(stakes.values()) + returned
    return final


def _another_round_settles(
    nodes: list[ServerProcess], players: list[tuple[str, str]], watcher: Watcher, through: int
) -> int:
    """The next round, with a bet through node ``through``: settled."""
    later = watcher.next_round(min_left_s=0.5)
    _, token = players[through]
    response = bet(nodes[through], token, later, {"banker": 600})
    assert response.status_code == 200, response.text
    assert wait_round_final(nodes[through], later)["phase"] == "settled"
    return later


def test_a_redis_restart_mid_round_loses_no_bet_and_every_feed_catches_up(
    cluster: Cluster,
) -> None:
    own = cluster.own_redis()
    nodes = cluster.three(betting_seconds=1.2, redis_url=own.url)
    dealer = dealer_of(nodes)
    watchers = [cluster.watch(node, f"n{i}") for i, node in enumerate(nodes, 1)]
    players = [new_player(node) for node in nodes]

    round_id = _bets_in_one_round(nodes, players, watchers[0])
    # Redis goes away as the round's betting closes, and comes back (empty) while it is dealt.
    _closed(watchers[0], round_id)
    down_at = time.monotonic()
    own.restart(down_for=0.5)

    final = _nothing_lost(cluster, nodes[2], players, round_id)
    assert final["phase"] == "settled"
    for watcher in watchers:
        # Each client learns how the round ended: from its events, or a snapshot after a gap.
        assert watcher.wait_finished(round_id, 15) == "settled"
        # The round was still in play when Redis went: its end reached the client after.
        assert watcher.learned_end_at(round_id) > down_at
        results = [s for s in watcher.round_events(round_id) if s.type == "round_result"]
        assert all(s.message["winner"] == final["winner"] for s in results)

    # The feeds are back in step: a whole later round, seq after seq, the same on every node.
    later = _another_round_settles(nodes, players, watchers[1], through=0)
    spans = [w.wait_span(later) for w in watchers]
    assert spans[0] == spans[1] == spans[2], spans
    for watcher in watchers:
        watcher.assert_sound(gaps_allowed=True)
        # What each client last learned of every finished round is what the database says.
        for rid, phase in watcher.finished().items():
            if rid >= round_id:
                assert round_view(nodes[0], rid)["phase"] == phase, (watcher.name, rid)
        print(f"{watcher.name}: {len(watcher.snapshots)} snapshots, gaps {watcher.gaps}")
    assert dealer_of(nodes) is dealer  # the lease is in PostgreSQL: Redis did not move it

    cluster.close()  # the ledger as the nodes leave it, checked without them competing for CPU
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]
    assert report["player_money"] + report["house"] + report["in_play"] == len(players) * CREDIT


def test_cut_postgresql_connections_mid_round_lose_no_bet(cluster: Cluster) -> None:
    nodes = cluster.three(betting_seconds=1.2)
    dealer_of(nodes)
    watchers = [cluster.watch(node, f"n{i}") for i, node in enumerate(nodes, 1)]
    players = [new_player(node) for node in nodes]

    round_id = _bets_in_one_round(nodes, players, watchers[0])
    _closed(watchers[0], round_id)
    [(cut,)] = query(
        "test",
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = %s AND pid <> pg_backend_pid()",
        (cluster.database,),
    )
    assert cut >= 3, cut  # every node had at least one connection open

    # Were a request answered 503 "try again", it would be retried as a client does, and listed.
    with tolerating_unavailable() as unavailable:
        _nothing_lost(cluster, nodes[1], players, round_id)
        # The table goes on: two more rounds settle, with bets through two other nodes.
        later = _another_round_settles(nodes, players, watchers[0], through=2)
        assert later > round_id
        assert _another_round_settles(nodes, players, watchers[1], through=0) > later
    print(f"{cut} connections cut; answered 503 and retried: {unavailable}")
    # No request made after the cut fails: the pools ping a connection before they lend it.
    assert unavailable == []
    for watcher in watchers:
        watcher.assert_sound(gaps_allowed=True)
    dealer_of(nodes)

    cluster.close()  # the ledger as the nodes leave it, checked without them competing for CPU
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]
    assert report["player_money"] + report["house"] + report["in_play"] == len(players) * CREDIT

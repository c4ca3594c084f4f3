"""Bets on one table through all three nodes of a cluster, in one round: all settle, once.

Each of three guest players bets through one node and again (on another spot) through the
next, so every node takes bets for a table that one of them deals. The round's bets are all
in the database, each settled once; each player's balance moves by exactly what its bets
returned; and a WebSocket on each node sees the same events of that round under the same seqs.
"""

from __future__ import annotations

import time
from collections import Counter

from .cluster_support import (
    CREDIT,
    Cluster,
    balance,
    bet_together,
    dealer_of,
    ledger_check,
    new_player,
    outcomes_per_bet,
    query,
    round_view,
    wait_round_final,
)

#: Player i bets BETS[i][0] through node i and BETS[i][1] through node i + 1.
BETS = [
    ({"player": 1000}, {"tie": 100}),
    ({"banker": 2500}, {"player_pair": 300}),
    ({"banker_pair": 200}, {"player": 700}),
]


def test_bets_through_every_node_settle_once_and_every_node_sees_the_same_round(
    cluster: Cluster,
) -> None:
    nodes = cluster.three(betting_seconds=1.5)
    assert dealer_of(nodes) is nodes[0]  # one table, three nodes: the first one up deals it
    players = [new_player(node) for node in nodes]
    watchers = [cluster.watch(node, f"n{i}") for i, node in enumerate(nodes, 1)]

    # A round that opens after every watcher is connected, so each sees all of it.
    connected = time.monotonic()
    opened = [
        w.wait_event(lambda s: s.type == "round_open", 15, "a round to open", after=connected)
        for w in watchers
    ]
    round_id = int(opened[0].message["round_id"])
    assert {int(s.message["round_id"]) for s in opened} == {round_id}

    firsts = bet_together(
        round_id, [(nodes[i], token, BETS[i][0]) for i, (_, token) in enumerate(players)]
    )
    seconds = bet_together(
        round_id, [(nodes[(i + 1) % 3], token, BETS[i][1]) for i, (_, token) in enumerate(players)]
    )
    took = time.monotonic() - opened[0].at
    print(f"six bets through three nodes answered {took:.2f} s after the round opened (1.5 s)")
    placed: list[Counter[str]] = []
    for one, two, (first, second) in zip(firsts, seconds, BETS, strict=True):
        assert one.status_code == 200, one.text
        assert two.status_code == 200, two.text
        # The second node sees the first node's bet: the round's stakes are in the database.
        assert two.json()["bets"] == {**first, **second}
        assert two.json()["balance"] == CREDIT - sum(first.values()) - sum(second.values())
        placed.append(Counter(first) + Counter(second))

    final = wait_round_final(nodes[2], round_id)
    assert final["phase"] == "settled"
    stakes = query(
        cluster.database,
        "SELECT player_id, spot, stake FROM bets WHERE round_id = %s ORDER BY id",
        (round_id,),
    )
    assert len(stakes) == sum(len(c) for c in placed)
    by_player = {pid: Counter[str]() for pid, _ in players}
    for player_id, spot, stake in stakes:
        by_player[player_id][spot] += int(stake)
    assert [by_player[pid] for pid, _ in players] == placed
    assert outcomes_per_bet(cluster.database, round_id) == [1] * len(stakes)

    for i, ((player_id, token), staked) in enumerate(zip(players, placed, strict=True)):
        node = nodes[(i + 2) % 3]  # read through the node that took none of this player's bets
        view = round_view(node, round_id, token)
        assert all(item["outcome"] == "settled" for item in view["bets"])
        assert Counter({item["spot"]: item["stake"] for item in view["bets"]}) == staked
        returned = sum(item["returned"] for item in view["bets"])
        [(in_db,)] = query(
            cluster.database,
            "SELECT coalesce(sum(o.returned), 0) FROM bet_outcomes o JOIN bets b "
            "ON b.id = o.bet_id WHERE b.round_id = %s AND b.player_id = %s",
            (round_id, player_id),
        )
        assert returned == int(in_db)
        assert balance(node, token) == CREDIT - sum(staked.values()) + returned

    # The round's events, under the same seqs, on every node.
    spans = [w.wait_span(round_id) for w in watchers]
    assert spans[0] == spans[1] == spans[2], spans
    seqs = [seq for seq, _ in spans[0]]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    kinds = [kind for _, kind in spans[0] if kind not in ("watching", "stakes")]
    assert kinds[0] == "round_open" and kinds[1] == "bets_closed", kinds
    assert kinds[-2:] == ["round_result", "settled"], kinds
    assert 4 <= kinds.count("card") <= 6
    for watcher in watchers:
        [settled] = [s for s in watcher.round_events(round_id) if s.type == "settled"]
        assert settled.message["players"] == len(players)
        assert settled.message["winner"] == final["winner"]
        watcher.assert_sound()

    cluster.close()  # the ledger as the nodes leave it, checked without them competing for CPU
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]
    assert report["player_money"] + report["house"] + report["in_play"] == len(players) * CREDIT

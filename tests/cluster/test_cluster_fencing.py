"""A dealer frozen past its lease (SIGSTOP) is fenced off: woken, it writes nothing more.

n1 deals a round with bets (placed through n2 and n3) and is stopped while the round takes
bets (its next act on waking: closing it) or while its cards turn (its next act: storing the
next turn, then the settlement), so that each time its next act would be a write. Another
node takes the table over once the lease has run out and finishes the round by the crash
policy; n1 stays stopped for three leases, then gets SIGCONT. It must log
that it is fenced off, stop dealing, and leave the database as the new dealer wrote it: no
round it had in play changed, no round opened by it, none settled twice. The table plays on
(seq after seq on the watchers of the other nodes) and n1 serves bets as any other node.
"""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import pytest
from serving import wait_until

from .cluster_support import (
    CREDIT,
    LEASE_MS,
    Cluster,
    bet,
    bet_together,
    dealer_of,
    health,
    ledger_check,
    new_player,
    outcomes_per_bet,
    pause,
    query,
    resume,
    stderr_lines,
    wait_round_final,
)

ROUND_COLUMNS = "id, shoe_id, number, phase, opened_at, closed_at, cards, revealed, finished_at"


def _rounds(database: str) -> dict[int, tuple[Any, ...]]:
    rows = query(
        database,
        f"SELECT {ROUND_COLUMNS}, void_reason FROM rounds WHERE table_id = 'standard' ORDER BY id",
    )
    return {int(row[0]): row for row in rows}


def _epoch(line: str) -> int:
    found = re.search(r"\(epoch (\d+)\)", line)
    assert found is not None, line
    return int(found.group(1))


@pytest.mark.parametrize("moment", ["betting", "revealing"])
def test_a_dealer_stopped_past_its_lease_is_fenced_off(moment: str, cluster: Cluster) -> None:
    # Revealing: cards turned slowly, so that n1 is stopped with the round's cards stored
    # and some still to turn (each turn a write of its own).
    nodes = cluster.three(reveal_ms=150 if moment == "revealing" else 20)
    n1, n2, n3 = nodes
    assert dealer_of(nodes) is n1
    [dealt] = stderr_lines(n1, "baccarat-node: n1 deals standard (epoch ")
    old_epoch = _epoch(dealt)
    watchers = [cluster.watch(n2, "n2"), cluster.watch(n3, "n3")]
    players = [new_player(n2), new_player(n3), new_player(n1)]

    round_id = watchers[0].next_round(min_left_s=0.6)
    stakes = {"banker": 1500, "tie": 100}
    placed = [(n2, players[0][1], stakes), (n3, players[1][1], stakes)]
    for response in bet_together(round_id, placed):
        assert response.status_code == 200, response.text
    if moment == "revealing":
        watchers[0].wait_event(
            lambda s: s.type == "card" and s.message["round_id"] == round_id, 10, "a card"
        )
    stopped_at = time.monotonic()
    pause(n1)
    shown = [s.message["card"] for s in watchers[0].round_events(round_id) if s.type == "card"]

    dealer = dealer_of([n2, n3], timeout=3 * LEASE_MS / 1000 + 5)
    took = time.monotonic() - stopped_at
    dealer_id = "n2" if dealer is n2 else "n3"
    print(f"SIGSTOP of the dealer: {dealer_id} deals the table {took:.2f} s later")
    final = wait_round_final(dealer, round_id)
    if moment == "betting":
        # Stopped before its close (or before its cards were stored): voided, stakes back.
        assert final["phase"] == "voided" and final["cards"] == [], final
    else:
        # Stopped with the cards stored: resumed with those cards, settled by the new dealer.
        assert final["phase"] == "settled", final
        assert [card["card"] for card in final["cards"]][: len(shown)] == shown
    assert outcomes_per_bet(cluster.database, round_id) == [1, 1, 1, 1]
    # n1 stays stopped for three leases in all (the outage itself, not a wait for an event).
    time.sleep(max(0.0, stopped_at + 3 * LEASE_MS / 1000 - time.monotonic()))

    [(holder, epoch)] = query(
        cluster.database, "SELECT node_id, epoch FROM table_leases WHERE table_id = 'standard'"
    )
    assert holder == dealer_id and int(epoch) > old_epoch
    before = _rounds(cluster.database)  # one snapshot (the table plays on meanwhile)
    max_id = max(before)
    assert max_id >= round_id
    woken_at = time.monotonic()
    resume(n1)

    marker = "baccarat-node: n1 fenced off standard"
    wait_until(lambda: stderr_lines(n1, marker) or None, 10, "n1 to say it is fenced off")
    wait_until(
        lambda: (data := health(n1)) is not None and data["dealing"] == [], 10, "n1 to stop dealing"
    )
    assert dealer_of(nodes) is dealer
    # What n1 shows now is what the new dealer says: a client of n1 sees the same events.
    watchers.append(cluster.watch(n1, "n1"))

    # The table plays on; n1 takes bets as any node does.
    later = watchers[2].next_round(min_left_s=0.5, newer_than=max_id)
    assert later > max_id
    _, token = players[2]
    response = bet(n1, token, later, {"player": 800})
    assert response.status_code == 200, response.text
    assert wait_round_final(n1, later)["phase"] == "settled"
    assert outcomes_per_bet(cluster.database, later) == [1]
    spans = [w.wait_span(later) for w in watchers]
    assert spans[0] == spans[1] == spans[2], spans
    seen_after = [s for s in watchers[0].copy() if s.at > woken_at]
    assert any(s.type == "settled" and s.message["round_id"] == later for s in seen_after)

    after = _rounds(cluster.database)
    # What n1 had in play, and every round finished before it woke, is as it was.
    for rid, row in before.items():
        if row[8] is not None or rid == round_id:
            assert after[rid] == row, (rid, row, after[rid])
    # Every round since the takeover was opened by the new dealer (announced on its feed),
    # one after the other, each settled or voided once.
    opened = {int(s.message["round_id"]) for s in watchers[0].copy() if s.type == "round_open"}
    ended: dict[int, int] = {}
    for seen in watchers[0].copy():
        if seen.type in ("settled", "round_void"):
            ended[int(seen.message["round_id"])] = ended.get(int(seen.message["round_id"]), 0) + 1
    # Up to the round waited for: a round opening meanwhile may not have reached the feed yet.
    newer = [rid for rid in after if round_id < rid <= later]
    assert newer and set(newer) <= opened, (newer, opened)
    for rid in newer:
        if after[rid][8] is not None:
            assert ended.get(rid) == 1, (rid, ended)
    ordered = sorted(after.values())
    for previous, current in itertools.pairwise(ordered):
        assert previous[8] is not None and current[4] >= previous[8], (previous, current)
    numbers = [(row[1], row[2]) for row in ordered]
    assert len(numbers) == len(set(numbers))
    for rid in after:
        if after[rid][8] is not None:
            assert outcomes_per_bet(cluster.database, rid) == [1] * len(
                query(cluster.database, "SELECT id FROM bets WHERE round_id = %s", (rid,))
            )
    [(holder_after, epoch_after)] = query(
        cluster.database, "SELECT node_id, epoch FROM table_leases WHERE table_id = 'standard'"
    )
    assert (holder_after, epoch_after) == (holder, epoch)
    for watcher in watchers:
        watcher.assert_sound()
    # One line said it, as the cluster mode's spec words it (a reason may follow).
    fenced = stderr_lines(n1, marker)
    assert len(fenced) == 1, fenced
    assert fenced[0].startswith(f"{marker} (epoch {old_epoch})"), fenced

    cluster.close()  # the ledger as the nodes leave it, checked without them competing for CPU
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]
    assert report["player_money"] + report["house"] + report["in_play"] == len(players) * CREDIT

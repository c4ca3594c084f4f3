"""Two nodes take bets for one round (one PostgreSQL, one Redis): a spot's maximum holds and
every receipt is what the database holds, in sequence and at once, on every spot with a
maximum; ``baccarat ledger check`` passes after (``stakes_support``)."""

from __future__ import annotations

from functools import partial

from .cluster_support import Cluster, bet, ledger_check, new_player, open_round
from .stakes_support import MAXIMA, Guest, at_once, in_sequence

#: A window that holds a few hundred requests on a loaded machine; the round is not waited out.
BETTING_SECONDS = 40.0


def test_two_nodes_hold_every_spots_maximum_and_answer_the_databases_stakes(
    cluster: Cluster,
) -> None:
    n1 = cluster.node("n1", betting_seconds=BETTING_SECONDS).start()
    n2 = cluster.node("n2", betting_seconds=BETTING_SECONDS).start()
    channels = [partial(bet, n1), partial(bet, n2)]
    done: list[str] = []
    for _ in range(3):  # a round that closes before the checks are through is not counted
        round_id = open_round(n1, min_left_ms=25_000, timeout=60)
        one = {spot: Guest(*new_player(n1)) for spot in MAXIMA}
        if in_sequence(cluster.database, round_id, one, channels[0], channels[1]):
            done.append("in sequence")
        many = {spot: Guest(*new_player(n2)) for spot in MAXIMA}
        if at_once(cluster.database, round_id, many, channels):
            done.append("at once")
        if len(done) == 2:
            break
        done.clear()
    assert done == ["in sequence", "at once"]
    cluster.close()
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]

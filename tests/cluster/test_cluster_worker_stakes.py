"""``serve --workers 2``: the two workers take bets for one round on one database, each with
its own bet queue; a spot's maximum holds and every receipt is what the database holds, in
sequence and at once, on every spot with a maximum; ``baccarat ledger check`` passes after
(``stakes_support``).

The kernel gives each new connection to either worker; a client keeps its connection (the
server keeps one alive 30 s), so a client found answered by one worker stays with it.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import httpx
from serving import ServerProcess, wait_until

from .cluster_support import TABLE, Cluster, ledger_check, new_player, open_round
from .stakes_support import MAXIMA, Guest, at_once, in_sequence

BETTING_SECONDS = 40.0


class Pinned:
    """A client whose one kept-alive connection a given worker accepted."""

    def __init__(self, client: httpx.Client, worker: str) -> None:
        self.client = client
        self.worker = worker

    def answered_by(self) -> str:
        response = self.client.get("/api/health")
        assert response.status_code == 200, response.text
        return str(response.json()["node"])

    def bet(self, token: str, round_id: int, bets: dict[str, int]) -> httpx.Response:
        return self.client.post(
            f"/api/tables/{TABLE}/bets",
            json={"round_id": round_id, "bets": bets},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
        )


@contextlib.contextmanager
def one_per_worker(node: ServerProcess) -> Iterator[list[Pinned]]:
    """A client on each worker (new clients until both workers have accepted one)."""
    found: dict[str, Pinned] = {}
    spare: list[httpx.Client] = []

    def both() -> list[Pinned] | None:
        client = httpx.Client(base_url=node.url, timeout=30.0)
        response = client.get("/api/health")
        assert response.status_code == 200, response.text
        worker = str(response.json()["node"])
        if worker in found:
            spare.append(client)
        else:
            found[worker] = Pinned(client, worker)
        return list(found.values()) if len(found) == 2 else None

    try:
        yield wait_until(both, 60, "a connection accepted by each worker", step=0.01)
    finally:
        for client in [*spare, *(p.client for p in found.values())]:
            client.close()


def test_two_workers_hold_every_spots_maximum_and_answer_the_databases_stakes(
    cluster: Cluster,
) -> None:
    node = cluster.node("w", workers=2, betting_seconds=BETTING_SECONDS).start(timeout=120)
    with one_per_worker(node) as (first, second):
        done: list[str] = []
        for _ in range(3):  # a round that closes before the checks are through is not counted
            round_id = open_round(node, min_left_ms=25_000, timeout=60)
            one = {spot: Guest(*new_player(node)) for spot in MAXIMA}
            if in_sequence(cluster.database, round_id, one, first.bet, second.bet):
                done.append("in sequence")
            # Each kept its worker throughout: the sequence went through both.
            assert [first.answered_by(), second.answered_by()] == [first.worker, second.worker]
            many = {spot: Guest(*new_player(node)) for spot in MAXIMA}
            if at_once(cluster.database, round_id, many, [first.bet, second.bet]):
                done.append("at once")
            if len(done) == 2:
                break
            done.clear()
        assert done == ["in sequence", "at once"]
    cluster.close()
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]

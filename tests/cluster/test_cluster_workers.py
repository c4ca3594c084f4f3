"""``baccarat serve --workers 2``: two processes on one port, each a node of the cluster; one
deals the table, either takes any request, and a worker killed is replaced while the other
takes its table over.

Connections are spread over the workers by the kernel (one listening socket, two accepting
processes): each request here opens a connection of its own, as clients behind a balancer do.
"""

from __future__ import annotations

import os
import signal
import uuid
from typing import Any

import httpx
from serving import TLS, ServerProcess, wait_until

from .cluster_support import TABLE, Cluster, ledger_check, open_round, wait_round_final


def answers(node: ServerProcess, times: int) -> list[dict[str, Any]]:
    """``/api/health`` ``times`` over, each on a new connection (whichever worker accepts it)."""
    found = []
    for _ in range(times):
        response = httpx.get(f"{node.url}/api/health", timeout=5, verify=TLS)
        assert response.status_code == 200, response.text
        found.append(response.json())
    return found


def workers_now(node: ServerProcess) -> dict[str, list[str]]:
    """The workers that answered 20 requests, by node id, with the tables each deals."""
    return {str(a["node"]): list(a["dealing"]) for a in answers(node, 20)}


def workers_seen(node: ServerProcess, timeout: float = 60) -> dict[str, list[str]]:
    """Each worker's node id with the tables it deals, once both have answered."""

    def both() -> dict[str, list[str]] | None:
        seen = workers_now(node)
        return seen if len(seen) == 2 else None

    return wait_until(both, timeout, "both workers to answer", step=0.1)


def test_two_workers_are_two_nodes_one_deals_and_a_killed_one_is_replaced(
    cluster: Cluster,
) -> None:
    node = cluster.node("w", workers=2, betting_seconds=4.0).start(timeout=120)
    seen = workers_seen(node)
    assert all(name.startswith("w-") for name in seen), seen
    assert sorted(table for tables in seen.values() for table in tables) == [TABLE]

    # Bets through new connections, on whichever worker: each settles once.
    players = []
    for _ in range(4):
        created = httpx.post(f"{node.url}/api/players", timeout=5)
        assert created.status_code == 201, created.text
        players.append(created.json()["token"])
    round_id = open_round(node, min_left_ms=2_500)
    for token in players:
        placed = httpx.post(
            f"{node.url}/api/tables/{TABLE}/bets",
            json={"round_id": round_id, "bets": {"player": 100}},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
            timeout=10,
        )
        assert placed.status_code == 200, placed.text
    final = wait_round_final(node, round_id)
    assert final["phase"] == "settled", final

    # The dealing worker killed: uvicorn's supervisor starts another, the table goes on.
    dealer = next(name for name, tables in seen.items() if tables)
    os.kill(int(dealer.rsplit("-", 1)[1]), signal.SIGKILL)

    def replaced() -> dict[str, list[str]] | None:
        now = workers_now(node)
        dealing = [name for name, tables in now.items() if TABLE in tables]
        return now if len(now) == 2 and dealer not in now and len(dealing) == 1 else None

    # A new worker is a fresh interpreter that imports, migrates and joins the cluster before
    # it accepts: on a machine busy with the browser tests, once, not within a minute.
    after = wait_until(replaced, 180, "a new worker, and the table dealt again", step=0.2)
    assert len(after) == 2 and dealer not in after
    later = open_round(node, min_left_ms=0, timeout=60)
    assert later > round_id
    cluster.close()
    ledger_check(cluster.db_url)

"""Jepsen-style on a two-node cluster: provider mode keeps every player's money exact when a node
is killed mid-round, with the wallet faulty.

Two ``baccarat serve`` nodes share PostgreSQL and Redis (``tests/cluster``'s way), on the real
clock; the operator's reference wallet runs beside them. Four players are launched through the
operator's signed launch, two on each node, and bet every round. The wallet's faults change
every few rounds; the nemesis kills (``kill -9``) the dealing node while debits are in flight at
the wallet, the other node likewise, and the dealing node again while it deals a round; each is
started again. A player whose node died sends the same request again through the other node,
as a client behind a load balancer would. Both nodes send the outbox (claims are leased, so
none is sent twice at once) and sweep the debits a dead node left pending. Then the faults are
turned off, the outbox drains, and ``jepsen_checks`` holds the books against each other.
"""

from __future__ import annotations

import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from jepsen_checks import problems, read_game, reconcile
from jepsen_nemesis import Nemesis
from jepsen_support import OPERATOR, Attempt, Casino, add_jepsen_operator
from serving import ServerProcess, wait_until
from wallet_process import WalletProcess

from baccarat.store import Database

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cluster.cluster_support import (
    REDIS_URL,
    Cluster,
    dealer_of,
    drop_redis_keys,
    fresh_database,
    request,
    require_services,
    round_view,
    wait_round_final,
)

SEED = 20261204
ROUNDS = 30
TIMEOUT_MS = 300
PHASE = 5
FAULTS: list[dict[str, Any]] = [
    {"latency_ms": 30, "error_rate": 0.2},
    {"drop_rate": 0.3},
    {"timeout_rate": 0.2, "hang_ms": 450},
    {"latency_ms": 10, "error_rate": 0.1, "drop_rate": 0.1, "timeout_rate": 0.1, "hang_ms": 900},
]
KILL_DEALER_IN_FLIGHT, KILL_OTHER_IN_FLIGHT, KILL_DEALER_DEALING = 6, 14, 22
PLAYERS = {"eka": 300_000, "fajar": 300_000, "gita": 300_000, "hadi": 50}


@pytest.fixture
def casino(tmp_path: Path) -> Iterator[Casino]:
    require_services()
    prefix = f"bj-{uuid.uuid4().hex}"
    with fresh_database() as (name, db_url):
        cluster = Cluster(name, db_url, REDIS_URL, prefix, tmp_path)
        wallet = WalletProcess(tmp_path, OPERATOR, b"", options=["--seed", str(SEED)])
        wallet.secret = add_jepsen_operator(db_url, wallet.url, TIMEOUT_MS)
        database = Database(db_url)
        nodes = [cluster.node(node, betting_seconds=1.5) for node in ("n1", "n2")]
        running = Casino(nodes, wallet, database, TIMEOUT_MS)
        try:
            nodes[0].start()  # first, so that it deals
            nodes[1].start()
            wallet.game_url = nodes[0].url
            wallet.start()
            for number, (player, balance) in enumerate(PLAYERS.items()):
                running.seat(player, balance, node=number % 2)
            yield running
        finally:
            running.close()
            wallet.close()
            cluster.close()
            database.dispose()
            drop_redis_keys(REDIS_URL, prefix)


def _next_round(node: ServerProcess, after: int, min_left_ms: int = 900) -> int:
    """The table's first round after ``after`` open with ``min_left_ms`` still to run."""

    def check() -> int | None:
        view = request(node, "GET", "/api/tables/standard").json()
        state = view["round"]
        if state and state["phase"] == "open" and state["id"] > after:
            return int(state["id"]) if state["closes_at_ms"] - view["now"] >= min_left_ms else None
        return None

    return wait_until(check, 30, f"a round after {after} open on {node.url}", step=0.03)


def _kill_in_flight(
    nemesis: Nemesis, node: int, attempts: list[Attempt], pool: ThreadPoolExecutor
) -> None:
    """Kill ``node`` while debits wait at the wallet; its players ask again through the other."""
    casino = nemesis.casino
    casino.wallet.faults(**{**nemesis.faults, "latency_ms": 250})
    nemesis.kill_during(lambda: casino.play(attempts, pool), lambda: nemesis.kill_node(node))
    casino.wallet.faults(**nemesis.faults)
    for lost in [a for a in attempts if a.status is None]:
        casino.retry(lost, node=1 - node)
    casino.nodes[node].start()


def _kill_while_dealing(nemesis: Nemesis, round_id: int) -> None:
    """Kill the dealing node as soon as the round has closed (it is then being dealt)."""
    casino = nemesis.casino
    dealer = dealer_of(casino.nodes)
    other = next(node for node in casino.nodes if node is not dealer)
    closed = lambda: round_view(other, round_id)["phase"] != "open"  # noqa: E731
    wait_until(closed, 10, f"round {round_id} to close", step=0.01)
    nemesis.kill_node(casino.nodes.index(dealer))
    dealer.start()


@pytest.mark.slow
@pytest.mark.services
def test_a_node_killed_mid_round_neither_loses_nor_doubles_money(casino: Casino) -> None:
    began = time.monotonic()
    nemesis = Nemesis(casino)
    rng = random.Random(SEED)
    other = {seat.external_id: 1 - seat.node for seat in casino.seats}
    last = 0
    with ThreadPoolExecutor(len(PLAYERS)) as pool:
        for number in range(ROUNDS):
            if number % PHASE == 0:
                nemesis.set_faults(**FAULTS[number // PHASE % len(FAULTS)])
            last = round_id = _next_round(casino.nodes[number % 2], last)
            attempts = casino.bets_of_round(rng, round_id)
            if number in (KILL_DEALER_IN_FLIGHT, KILL_OTHER_IN_FLIGHT):
                dealer = casino.nodes.index(dealer_of(casino.nodes))
                victim = dealer if number == KILL_DEALER_IN_FLIGHT else 1 - dealer
                _kill_in_flight(nemesis, victim, attempts, pool)
                continue
            for attempt in casino.play(attempts, pool):
                if attempt.status == 200 and rng.random() < 0.1:
                    casino.retry(attempt, node=other[attempt.external_id])  # the same answer
            if number == KILL_DEALER_DEALING:
                _kill_while_dealing(nemesis, round_id)
    wait_round_final(casino.server, last)  # its credits are queued with its settlement
    nemesis.set_faults()
    nemesis.drain(timeout=90)
    used = nemesis.processes_cpu()

    rows = casino.wallet.transactions()
    finals = {seat.external_id: casino.wallet.balance(seat.external_id) for seat in casino.seats}
    game = read_game(casino.server.db_url, casino.seats)
    found = problems(game, rows, casino.seats, finals, casino.history)
    assert not found, "\n".join(found[:40])
    assert reconcile(casino.server.db_url)["orphans"] == []
    answers = Counter((a.status, a.code) for a in casino.history)
    calls = Counter((c["kind"], c["state"]) for c in game.calls.values())
    print(
        f"{ROUNDS} rounds on two nodes in {time.monotonic() - began:.1f} s (nodes and wallet "
        f"{used:.1f} CPU-s): answers {dict(answers)}; calls {dict(calls)}"
    )
    assert answers[200, None] > ROUNDS and answers[None, None] > 0  # killed under a request
    assert answers[402, "wallet_refused"] > 0
    assert calls["debit", "unknown"] > 0 and calls["credit", "done"] > ROUNDS
    swept = [c for c in game.calls.values() if "swept" in (c["last_error"] or "")]
    assert swept  # a debit a dead node left pending, rolled back by the other

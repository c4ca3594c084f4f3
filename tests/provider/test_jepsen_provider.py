"""Jepsen-style: provider mode keeps every player's money exact through a faulty wallet, wallet
restarts and ``kill -9`` of the game server, on real processes.

``baccarat serve`` (SQLite, on a virtual clock so that a round takes a fraction of a second) and
the operator's reference wallet (``baccarat wallet reference``) run as processes of their own;
four players are launched through the operator's signed launch and bet through the API. The
nemesis cycles the wallet's faults (latency; 500s before anything moves; hangs past the game's
timeout that then move the money; answers dropped after the money moved), kills the game server
while debits are in flight at the wallet and while a round is being dealt, and kills the wallet
mid-call; a client left without an answer sends the same request again after the restart, and
a few answered ones are sent again too. Then the faults are turned off, the outbox drains, and
``jepsen_checks`` holds the wallet's books, the game's and the clients' history against each
other; ``baccarat wallet reconcile`` must find no orphan.

``BACCARAT_JEPSEN_ROUNDS`` plays more rounds (``make bench`` runs a longer one).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from jepsen_checks import problems, read_game, reconcile
from jepsen_nemesis import Nemesis
from jepsen_support import OPERATOR, TABLE, Casino, add_jepsen_operator
from serving import ServerProcess
from wallet_process import WalletProcess

from baccarat.store import Database

SEED = 20261203
ROUNDS = int(os.environ.get("BACCARAT_JEPSEN_ROUNDS", "160"))
#: The operator's wallet timeout, and the betting window (so a debit may use all of it).
TIMEOUT_MS = 300
#: The wallet's faults, each for ``PHASE`` rounds in turn (the draws are the wallet's, seeded).
PHASE = 10
FAULTS: list[dict[str, Any]] = [
    {},
    {"latency_ms": 40, "error_rate": 0.25},
    {"drop_rate": 0.3},
    {"timeout_rate": 0.15, "hang_ms": 450},
    {"latency_ms": 10, "error_rate": 0.1, "drop_rate": 0.1, "timeout_rate": 0.05, "hang_ms": 900},
]
#: The nemesis's moves, by round (modulo 160 in a longer run).
KILL_IN_FLIGHT = {13, 67, 121}
KILL_DEALING = {40, 94}
WALLET_KILL = {22, 101}
#: The players (the operator's ids) and their first balances at the wallet: one has less than
#: the smallest chip, so the wallet refuses each of her debits (a definite no).
PLAYERS = {"ana": 500_000, "budi": 500_000, "citra": 500_000, "dewi": 50}


@pytest.fixture
def casino(tmp_path: Path, servers: list[ServerProcess]) -> Iterator[Casino]:
    db_url = f"sqlite:///{tmp_path / 'game.db'}"
    wallet = WalletProcess(tmp_path, OPERATOR, b"", options=["--seed", str(SEED)])
    wallet.secret = add_jepsen_operator(db_url, wallet.url, TIMEOUT_MS)
    server = ServerProcess(
        db_url,
        tmp_path,
        tables=TABLE,
        betting_seconds=TIMEOUT_MS / 1000,
        reveal_ms=0,
        result_ms=0,
        virtual_clock=True,
    )
    servers.append(server)
    server.start()
    wallet.game_url = server.url  # for the launches
    database = Database(db_url)
    running = Casino([server], wallet, database, TIMEOUT_MS)
    try:
        wallet.start()
        for name, balance in PLAYERS.items():
            running.seat(name, balance)
        yield running
    finally:
        running.close()
        wallet.close()
        database.dispose()


def _open_round(casino: Casino) -> tuple[int, int]:
    """The open round's id and the virtual ms until it closes."""
    view = casino.server.get(f"/api/tables/{TABLE}")
    state = view["round"]
    assert state is not None and state["phase"] == "open", state
    return int(state["id"]), max(1, int(state["closes_at_ms"]) - int(view["now"]))


def _play_round(
    nemesis: Nemesis, number: int, rng: random.Random, pool: ThreadPoolExecutor
) -> None:
    casino = nemesis.casino
    server, moment = casino.server, number % 160
    round_id, left = _open_round(casino)
    attempts = casino.bets_of_round(rng, round_id)
    if moment in KILL_IN_FLIGHT | WALLET_KILL:
        # Slow answers this round, so that the kill lands while debits wait at the wallet.
        casino.wallet.faults(**{**nemesis.faults, "latency_ms": 200})
        on_server = moment in KILL_IN_FLIGHT
        nemesis.kill_during(
            lambda: casino.play(attempts, pool),
            nemesis.kill_node if on_server else nemesis.kill_wallet,
        )
        if on_server:
            server.start()
            casino.wallet.faults(**nemesis.faults)
            for lost in [a for a in attempts if a.status is None]:
                casino.retry(lost)  # its first answer, or why not now
            round_id, left = _open_round(casino)
        else:
            nemesis.restart_wallet()
    else:
        for attempt in casino.play(attempts, pool):
            if attempt.status != 200:
                continue
            if rng.random() < 0.08:
                casino.retry(attempt)  # answered, sent again: the same answer, nothing moved
            elif rng.random() < 0.08:
                casino.undo_last(attempt)
    if moment in KILL_DEALING:
        server.post_clock(left)  # the window closes and the dealer deals...
        nemesis.kill_node()  # ...and dies somewhere in the round
        server.start()
    else:
        server.advance(left)


@pytest.mark.slow
def test_kills_and_a_faulty_wallet_neither_lose_nor_double_money(casino: Casino) -> None:
    began = time.monotonic()
    nemesis = Nemesis(casino)
    rng = random.Random(SEED)
    with ThreadPoolExecutor(len(PLAYERS)) as pool:
        for number in range(ROUNDS):
            if number % PHASE == 0:
                nemesis.set_faults(**FAULTS[number // PHASE % len(FAULTS)])
            _play_round(nemesis, number, rng, pool)
    nemesis.set_faults()
    nemesis.drain()
    used = nemesis.processes_cpu()
    casino.server.stop()

    db_url = casino.server.db_url
    rows = casino.wallet.transactions()
    finals = {seat.external_id: casino.wallet.balance(seat.external_id) for seat in casino.seats}
    game = read_game(db_url, casino.seats)
    found = problems(game, rows, casino.seats, finals, casino.history)
    assert not found, "\n".join(found[:40])
    assert reconcile(db_url)["orphans"] == []

    answers = Counter((a.status, a.code) for a in casino.history)
    calls = Counter((c["kind"], c["state"]) for c in game.calls.values())
    print(
        f"{ROUNDS} rounds in {time.monotonic() - began:.1f} s (server and wallet "
        f"{used:.1f} CPU-s): answers {dict(answers)}; calls {dict(calls)}"
    )
    # The run met what it was for: each kind of answer, and each path of the wallet's.
    assert answers[200, None] > ROUNDS and answers[402, "wallet_refused"] > 0
    assert answers[503, "wallet_unavailable"] > 5 and answers[None, None] > 0  # no answer
    assert calls["debit", "unknown"] > 5 and calls["credit", "done"] > ROUNDS
    swept = [c for c in game.calls.values() if "swept" in (c["last_error"] or "")]
    assert swept  # a debit left pending by a kill, rolled back after the restart
    assert any(row["tombstone"] for row in rows)  # a rollback that came before its debit
    assert any(row["kind"] == "rollback" and row["moved"] > 0 for row in rows)  # a refund
    assert sum(c["attempts"] > 1 for c in game.calls.values()) > 5  # sent again, moved once

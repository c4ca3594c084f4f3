"""Two nodes behind nginx, from the shipped configuration (``deploy/nginx/baccarat.conf``): the
players know only the proxy's address. Bets spread over both nodes and settle once, the feed's
WebSocket passes through, a forged ``X-Forwarded-For`` is replaced by the proxy, and when the
dealing node is killed the other takes the table over while the players, still through the
proxy, bet on and watch the next rounds; ``ledger check`` holds."""

from __future__ import annotations

import os
import signal
import uuid
from pathlib import Path

import httpx
from serving import wait_until

from .cluster_support import (
    CREDIT,
    TABLE,
    Cluster,
    Watcher,
    dealer_of,
    ledger_check,
    outcomes_per_bet,
)
from .proxy_support import Nginx

OPTIONS = ["--forwarded-allow-ips", "127.0.0.1", "--allowed-hosts", "127.0.0.1"]


def _open_round(client: httpx.Client, after: int = 0, min_left_ms: int = 1_500) -> int:
    def check() -> int | None:
        data = client.get(f"/api/tables/{TABLE}").json()
        state = data["round"]
        fresh = state and state["id"] > after and state["phase"] == "open"
        if fresh and state["closes_at_ms"] - data["now"] > min_left_ms:
            return int(state["id"])
        return None

    return wait_until(check, 60, "an open round through the proxy", step=0.05)


def _bet(client: httpx.Client, token: str, round_id: int) -> httpx.Response:
    return client.post(
        f"/api/tables/{TABLE}/bets",
        json={"round_id": round_id, "bets": {"banker": 1_000}},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
    )


def test_two_nodes_behind_nginx_take_bets_and_fail_over(cluster: Cluster, tmp_path: Path) -> None:
    n1 = cluster.node("n1", betting_seconds=3.0, options=OPTIONS).start()
    n2 = cluster.node("n2", betting_seconds=3.0, options=OPTIONS).start()
    proxy = Nginx(tmp_path / "nginx", [n1, n2]).start()
    try:
        watcher = Watcher(f"{proxy.ws_url}/ws/tables/{TABLE}", "through nginx")
        cluster.watchers.append(watcher)
        watcher.start()
        with httpx.Client(base_url=proxy.url, timeout=10) as client:
            # A client's own X-Forwarded-For is replaced by the proxy's: sixty guests a minute
            # per address, however many addresses the client claims to be.
            made = [
                client.post("/api/players", headers={"X-Forwarded-For": f"6.6.6.{n}"})
                for n in range(61)
            ]
            assert [m.status_code for m in made] == [201] * 60 + [429]
            players = [m.json()["token"] for m in made[:6]]
            placed: dict[int, int] = {}
            round_id = _open_round(client)
            for token in players:
                assert _bet(client, token, round_id).status_code == 200
            placed[round_id] = len(players)

            # The dealing node dies; the other takes the table over, behind the same address.
            dealer = dealer_of([n1, n2])
            assert dealer.process is not None and dealer.process.pid is not None
            os.kill(dealer.process.pid, signal.SIGKILL)
            dealer.process.join(10)
            after = _open_round(client, after=round_id)
            for token in players:
                assert _bet(client, token, after).status_code == 200
            placed[after] = len(players)

            def settled() -> bool | None:
                view = client.get(f"/api/rounds/{after}").json()
                return view["phase"] in ("settled", "voided") or None

            wait_until(settled, 60, f"round {after} to finish")
            balances = [
                client.get("/api/me", headers={"Authorization": f"Bearer {t}"}).json()["balance"]
                for t in players
            ]
        # Every acknowledged bet of the two rounds settled (or was returned) once.
        for number, count in placed.items():
            outcomes = outcomes_per_bet(cluster.database, number)
            assert len(outcomes) == count and set(outcomes) == {1}, (number, outcomes)
        assert all(0 <= balance <= CREDIT + 2_000 for balance in balances)
        # The feed through the proxy saw the round after the failover open.
        watcher.wait_event(
            lambda seen: seen.type == "round_open" and seen.message["round_id"] >= after,
            30,
            "the round after the failover, through nginx",
        )
    finally:
        proxy.stop()
    cluster.close()
    report = ledger_check(cluster.db_url)
    assert report["ok"] and not report["problems"]

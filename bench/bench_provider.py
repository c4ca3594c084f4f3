"""Benchmark of provider mode: the bet latency when an operator's wallet pays the stakes, beside
the internal wallet in the same run, and a slow operator's wallet beside a fast one.

Everything is a real process on loopback: ``baccarat serve`` (``bench_server.Server``, the same
settings for every step), the operators added with ``baccarat operator add``, and one
``baccarat wallet reference`` per operator: ``fast`` answering each call in ``--latency-ms``
(20 ms) and ``slow`` in ``--slow-latency-ms`` (2 s). The operators' players are launched as an
operator launches them (the wallet signs ``POST /api/operators/{id}/launch``, the page trades
the link for a session); the internal wallet's players are guests.

The load is an open loop (``offer``): bet ``n`` of a step is due at ``start + n / rate`` and is
sent then whatever became of the earlier ones, each on a keep-alive connection of a pool of its
own group (a slow group never holds a fast group's connections), and its latency is measured
from that scheduled time, not from when it was sent: a generator or a server that falls behind
shows in the figures instead of hiding (no coordinated omission). How late the sends went out
(``send_lag``) and the CPU seconds of this process say whether the generator kept up.

Every step is offered in one long betting window (the server is stopped before it closes):

1. After a warm-up, bets at ``--rate`` (500/s) for ``--step-seconds`` from the guests (the
   internal wallet), then the same from the fast operator's players: p50 and p99 of each, and
   the bets per second each got through.
2. The operator's players alone at each rate of ``--provider-rates`` in turn, up to the first
   that misses every bet accepted with a p99 within 100 ms: the highest that meets it is the
   rate the provider path sustains here.
3. Half the fast operator's players at ``--fast-rate`` beside the other half at
   ``--slow-rate`` (the control), then the same half beside the slow operator's players at
   ``--slow-rate`` (its wallet holds each call 2 s; ``2 × rate`` calls in flight, within the
   game's 64 per operator), twice over, alternating: p50 and p99 of each. The server has the
   same work in both, so a difference is the slow wallet's; the rates are kept within what
   step 2 found the provider path sustains, so that a saturated server is not what shows.

Every step prints its wall seconds beside the CPU seconds of the server, the wallets and this
process, and the load average (the machine may be shared). The last line is one JSON object.

Usage: python bench/bench_provider.py [--rate 500] [--step-seconds 5] [--latency-ms 20]
       [--provider-rates 10,20,40,80] [--fast-rate 8] [--slow-rate 3]
       [--slow-latency-ms 2000] [--players 100] [--databases sqlite,postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench_server import RawHttp, Server, drop_schema, free_port, postgres_url, raise_open_files
from provider_load import (
    Load,
    Meter,
    Wallet,
    add_operator,
    launch_players,
    line,
    offer,
    open_round,
    summary,
)

#: The betting window: every step is offered in one round (the server is stopped before it
#: closes, so no settlement's credits load the steps).
WINDOW_S = 1800.0
P99_TARGET_MS = 100.0


def record(
    figures: dict[str, Any], prefix: str, result: dict[str, Any], *, alone: bool = True
) -> None:
    """The step's figures under ``prefix`` (``alone``: the step's only group of bettors)."""
    for key in ("p50_ms", "p99_ms", "send_lag_p99_ms", "wall_s", "server_cpu_s", "wallet_cpu_s"):
        figures[f"{prefix}_{key}"] = round(result[key], 2)
    figures[f"{prefix}_bench_cpu_s"] = round(result["bench_cpu_s"], 2)
    figures[f"{prefix}_accepted"] = result["accepted"]
    figures[f"{prefix}_sent"] = result["sent"]
    figures[f"{prefix}_bets_per_second"] = round(result["accepted"] / result["wall_s"], 1)
    if alone and result["accepted"]:  # a shared machine stretches wall time far more than CPU
        per_bet = result["server_cpu_s"] * 1000 / result["accepted"]
        figures[f"{prefix}_server_cpu_ms_per_bet"] = round(per_bet, 2)


async def step(
    label: str,
    groups: list[tuple[Load, float]],
    round_id: int,
    seconds: float,
    meter: Meter,
) -> list[dict[str, Any]]:
    """Offer each group's bets at its rate at once; each group's result in this step (with
    the step's CPU)."""
    marks = [load.mark() for load, _ in groups]
    await asyncio.gather(*(offer(load, round_id, rate, seconds) for load, rate in groups))
    used = meter.read()
    results = []
    for (load, rate), mark in zip(groups, marks, strict=True):
        result = {**summary(load, mark), **used}
        print(line(f"{label}: {load.name} at {rate:g}/s", result), flush=True)
        results.append(result)
    return results


async def run_database(
    name: str, db_url: str, args: argparse.Namespace, workdir: Path
) -> dict[str, Any]:
    key = os.environ.get("BACCARAT_SEED_KEY") or secrets.token_hex(32)
    env = {**os.environ, "BACCARAT_SEED_KEY": key}
    ports = {operator: free_port() for operator in ("fast", "slow")}
    operator_secrets = {
        operator: add_operator(db_url, operator, f"http://127.0.0.1:{port}", env)
        for operator, port in ports.items()
    }
    # One long window holds every step (the server is stopped before it closes). This
    # process holds a pool of connections per group: more than the server's cap per address.
    more = ["--max-connections-per-address", "2048"]
    server = Server(db_url, WINDOW_S, workdir, more, {"BACCARAT_SEED_KEY": key})
    wallets: list[Wallet] = []
    figures: dict[str, Any] = {}
    try:
        server.wait()
        for operator, latency in (("fast", args.latency_ms), ("slow", args.slow_latency_ms)):
            # On the port the operator was added with: where the game calls it.
            secret = operator_secrets[operator]
            wallets.append(Wallet(operator, ports[operator], secret, server.url, latency, workdir))
        for wallet in wallets:
            wallet.wait()
        pools = {
            kind: RawHttp("127.0.0.1", server.port, args.connections)
            for kind in ("internal", "fast", "slow")
        }
        for pool in pools.values():
            await pool.open()
        try:
            guests = []
            for _ in range(args.players):
                _, created = await pools["internal"].request("POST", "/api/players")
                guests.append(json.loads(created)["token"])
            fast = await launch_players(pools["fast"], wallets[0], args.players)
            slow = await launch_players(pools["slow"], wallets[1], args.players // 4)
            round_id = await open_round(pools["internal"], WINDOW_S / 2)
            print(
                f"[{name}] round {round_id}: {len(guests)} guests, {len(fast)} players of the "
                f"fast operator (wallet {args.latency_ms} ms), {len(slow)} of the slow one "
                f"(wallet {args.slow_latency_ms} ms)",
                flush=True,
            )
            # Unmeasured: each player's first bet reads its session, and so on.
            for tokens, pool in ((guests, pools["internal"]), (fast, pools["fast"])):
                await offer(Load("warm-up", tokens, pool), round_id, 50, 2.0)

            def load(group: str, tokens: list[str], pool: str) -> Load:
                return Load(group, tokens, pools[pool])

            rate = args.rate
            # 1. The same load on the internal wallet, then on the operator's.
            for kind, tokens in (("internal", guests), ("provider", fast)):
                pool = "internal" if kind == "internal" else "fast"
                meter = Meter(server, wallets)
                [result] = await step(
                    f"[{name}] 1", [(load(kind, tokens, pool), rate)], round_id,
                    args.step_seconds, meter,
                )  # fmt: skip
                record(figures, f"provider_{name}_{kind}_{rate}", result)
            # 2. What the provider path sustains: the highest rate of the sweep with every bet
            # accepted and a p99 within 100 ms.
            best = None
            for swept in (int(r) for r in args.provider_rates.split(",")):
                meter = Meter(server, wallets)
                [result] = await step(
                    f"[{name}] 2", [(load("provider", fast, "fast"), swept)], round_id,
                    args.step_seconds, meter,
                )  # fmt: skip
                record(figures, f"provider_{name}_provider_{swept}", result)
                if result["accepted"] < result["sent"] or result["p99_ms"] > P99_TARGET_MS:
                    break
                best = swept
            figures[f"provider_{name}_provider_sustained_rate"] = best or 0
            # 3. Half the fast operator's players at --fast-rate, beside the other half at
            # --slow-rate (the control: the same work for the server), then beside the slow
            # operator's players at --slow-rate; twice over, alternating, so that a drift of
            # a shared machine falls on both.
            half = len(fast) // 2
            control = load("fast operator, beside fast", fast[:half], "fast")
            companion = load("fast operator, other half", fast[half:], "fast")
            measured = load("fast operator, beside slow", fast[:half], "fast")
            slowed = load("slow operator", slow, "slow")
            used: dict[str, list[dict[str, float]]] = {"fast": [], "slow": []}
            for _ in range(2):
                for kind, beside in (("fast", (control, companion)), ("slow", (measured, slowed))):
                    groups = [(beside[0], args.fast_rate), (beside[1], args.slow_rate)]
                    meter = Meter(server, wallets)
                    await step(f"[{name}] 3", groups, round_id, args.step_seconds, meter)
                    used[kind].append(meter.read())
            for kind, group, meters in (
                ("fast_operator_beside_fast", control, used["fast"]),
                ("fast_operator_beside_slow", measured, used["slow"]),
                ("slow_operator", slowed, used["slow"]),
            ):
                summed = {key: sum(m[key] for m in meters) for key in meters[0]}
                summed["load_average"] /= len(meters)  # the mean; the rest add up
                result = {**summary(group), **summed}
                print(line(f"[{name}] 3, both steps: {group.name}", result), flush=True)
                record(figures, f"provider_{name}_{kind}", result, alone=False)
        finally:
            for pool in pools.values():
                await pool.close()
    finally:
        for wallet in wallets:
            wallet.stop()
        server.stop()
    figures[f"provider_{name}_load_average"] = round(os.getloadavg()[0], 2)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=500)
    parser.add_argument("--step-seconds", type=float, default=5.0)
    parser.add_argument("--latency-ms", type=int, default=20)
    parser.add_argument("--slow-latency-ms", type=int, default=2000)
    parser.add_argument("--provider-rates", default="10,20,40,80")
    parser.add_argument("--fast-rate", type=int, default=8)
    parser.add_argument("--slow-rate", type=int, default=3)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--connections", type=int, default=150)
    parser.add_argument("--databases", default="sqlite")
    args = parser.parse_args()
    raise_open_files(4096)
    figures: dict[str, Any] = {
        "provider_rate": args.rate,
        "provider_wallet_latency_ms": args.latency_ms,
    }
    with tempfile.TemporaryDirectory(prefix="bench-provider-") as folder:
        workdir = Path(folder)
        for name in args.databases.split(","):
            schema = None
            if name == "sqlite":
                url = f"sqlite:///{workdir / 'bench.db'}"
            else:
                found = postgres_url()
                if found is None:
                    continue
                url, schema = found
            try:
                figures.update(asyncio.run(run_database(name, url, args, workdir)))
            finally:
                if schema is not None:
                    drop_schema(schema)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

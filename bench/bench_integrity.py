"""The integrity monitor's cost: per settled round, and per side bet placed.

Deals ``--shoes`` fair 8-deck EZ shoes (fixed seeds) before timing, keeping each coup with
the cards left before it, then feeds them to a fresh ``TableMonitor`` (``observe_round``,
the exact EV of every side bet for those cards, the frequency tests, the scores) three ways:
with no bets; with ``--players`` players each on ``--bets`` side bets (Dragon 7, Panda 8,
the pairs) every round; and ``observe_bet`` alone. Each figure is the best of ``--repeat``
runs, in CPU time (``time.process_time``, this process) and wall time; the per-bet cost is
the difference between the second and the first, per bet. The issue's bound: at most 1 ms
of CPU per settled round. The last line is JSON.

Run: ``.venv/bin/python bench/run.py integrity`` (or ``bench/bench_integrity.py`` alone).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Mapping

from baccarat.analysis.exact.counts import CardCounts
from baccarat.coup import Coup
from baccarat.integrity.advantage import depth_of
from baccarat.integrity.monitor import RoundSeen, TableMonitor, observe_bet, observe_round
from baccarat.rulesets import load_ruleset
from baccarat.shoe import Shoe

EZ = load_ruleset("ez")
SIDE_BETS = ("dragon_7", "panda_8", "player_pair", "banker_pair", "either_pair")
BOUND_MS = 1.0


def deal(shoes: int) -> list[tuple[str, Coup, CardCounts]]:
    """Every coup of ``shoes`` shoes with the cards left before it."""
    dealt = []
    for i in range(shoes):
        shoe = Shoe.shuffled(rng=random.Random(f"bench-{i}"), procedure=EZ.shoe)
        before = CardCounts.of(shoe.order[shoe.position :])
        while not shoe.finished:
            coup = shoe.deal_coup()
            dealt.append((f"shoe-{i}", coup, before))
            before = before.without(coup.cards)
    return dealt


def best(run: Callable[[], None], repeat: int) -> tuple[float, float]:
    """The least CPU and the least wall seconds of ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall)


def feed(
    dealt: list[tuple[str, Coup, CardCounts]], bets: Mapping[str, Mapping[str, int]]
) -> Callable[[], None]:
    def run() -> None:
        state = TableMonitor.start("bench", EZ)
        for number, (shoe_id, coup, before) in enumerate(dealt):
            seen = RoundSeen(number, shoe_id, coup, before, bets)
            state, _ = observe_round(state, seen, now_ms=number)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=6)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--bets", type=int, default=3, help="side bets per player and round")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    dealt = deal(args.shoes)
    rounds = len(dealt)
    placed = {
        f"player-{p}": {SIDE_BETS[(p + b) % len(SIDE_BETS)]: 500 for b in range(args.bets)}
        for p in range(args.players)
    }
    per_round = sum(len(b) for b in placed.values())
    feed(dealt[:3], placed)()  # warm-up: the rule set's engines, the compiled kernel

    cpu0, wall0 = best(feed(dealt, {}), args.repeat)
    cpu1, wall1 = best(feed(dealt, placed), args.repeat)

    state = TableMonitor.start("bench", EZ)
    for number, (shoe_id, coup, before) in enumerate(dealt):
        state, _ = observe_round(state, RoundSeen(number, shoe_id, coup, before, {}), now_ms=0)
    depth = depth_of(200, 416)
    bets = 2_000

    def direct() -> None:
        s = state
        for i in range(bets):
            s, _ = observe_bet(
                s, f"p{i % 50}", "dragon_7", 500, 0.01, depth, round_id=i, shoe_id="x", now_ms=i
            )

    cpu2, wall2 = best(direct, args.repeat)

    figures = {
        "integrity_round_ms_cpu": 1000 * cpu0 / rounds,
        "integrity_round_ms_wall": 1000 * wall0 / rounds,
        "integrity_round_with_bets_ms_cpu": 1000 * cpu1 / rounds,
        "integrity_round_with_bets_ms_wall": 1000 * wall1 / rounds,
        "integrity_bet_us_cpu": 1e6 * (cpu1 - cpu0) / (rounds * per_round),
        "integrity_bet_us_wall": 1e6 * (wall1 - wall0) / (rounds * per_round),
        "integrity_observe_bet_us_cpu": 1e6 * cpu2 / bets,
        "integrity_observe_bet_us_wall": 1e6 * wall2 / bets,
    }
    print(f"{rounds} rounds of {args.shoes} EZ shoes, best of {args.repeat}")
    print(
        f"per settled round, no bets:        {figures['integrity_round_ms_cpu']:.3f} ms CPU,"
        f" {figures['integrity_round_ms_wall']:.3f} ms wall"
    )
    print(
        f"per settled round, {per_round} side bets: {figures['integrity_round_with_bets_ms_cpu']:.3f}"
        f" ms CPU, {figures['integrity_round_with_bets_ms_wall']:.3f} ms wall"
    )
    print(
        f"per side bet (difference):         {figures['integrity_bet_us_cpu']:.1f} µs CPU,"
        f" {figures['integrity_bet_us_wall']:.1f} µs wall"
    )
    print(
        f"observe_bet alone:                 {figures['integrity_observe_bet_us_cpu']:.1f} µs CPU,"
        f" {figures['integrity_observe_bet_us_wall']:.1f} µs wall"
    )
    within = figures["integrity_round_ms_cpu"] <= BOUND_MS
    print(f"bound {BOUND_MS} ms CPU per settled round (no bets): {'met' if within else 'NOT MET'}")
    print(json.dumps({key: round(value, 4) for key, value in figures.items()}, sort_keys=True))


if __name__ == "__main__":
    main()

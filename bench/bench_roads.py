"""Throughput of :class:`baccarat.roads.Scoreboard`: results appended per second.

Appends 1,000,000 random results (ties, pairs, naturals and totals included; fixed seed) twice:
in shoes of 80 results (a ``reset()`` between shoes, as a table does) and as one huge shoe. The
results are drawn before timing starts; each figure is the best of ``--repeat`` runs. The last
line is JSON; ``roads_results_per_second`` is the lower of the two figures.

Run: ``.venv/bin/python bench/bench_roads.py``
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from baccarat.roads import Result, Scoreboard

# Eight-deck punto banco frequencies (Banker, Player, Tie; each pair) and a rough natural rate.
P_BANKER, P_PLAYER = 0.4586, 0.4462
P_PAIR, P_NATURAL = 0.0747, 0.34


def draw_results(count: int, seed: int) -> list[Result]:
    """``count`` random results. Equal records share one object (the scoreboard only reads
    them), so a million of them fit in little memory."""
    rng = random.Random(seed)
    pool: dict[Result, Result] = {}
    out = []
    for _ in range(count):
        u = rng.random()
        outcome = "B" if u < P_BANKER else "P" if u < P_BANKER + P_PLAYER else "T"
        result = Result(
            outcome,  # type: ignore[arg-type]
            banker_pair=rng.random() < P_PAIR,
            player_pair=rng.random() < P_PAIR,
            natural=rng.random() < P_NATURAL,
            total=rng.randrange(10),
        )
        out.append(pool.setdefault(result, result))
    return out


def in_shoes(results: list[Result], shoe: int) -> float:
    board = Scoreboard()
    add, reset = board.add, board.reset
    start = time.perf_counter()
    for first in range(0, len(results), shoe):
        reset()
        for result in results[first : first + shoe]:
            add(result)
    return time.perf_counter() - start


def one_shoe(results: list[Result]) -> float:
    board = Scoreboard()
    add = board.add
    start = time.perf_counter()
    for result in results:
        add(result)
    return time.perf_counter() - start


def best(run: Callable[[], float], repeat: int) -> float:
    return min(run() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--shoe", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()
    results = draw_results(args.results, args.seed)
    n = len(results)
    shoes = n / best(lambda: in_shoes(results, args.shoe), args.repeat)
    print(f"shoes of {args.shoe}: {shoes:,.0f} results/s")
    huge = n / best(lambda: one_shoe(results), args.repeat)
    print(f"one shoe of {n:,}: {huge:,.0f} results/s")
    print(
        json.dumps(
            {
                "roads_results_per_second": round(min(shoes, huge)),
                "shoes_of_80": round(shoes),
                "one_shoe": round(huge),
            }
        )
    )


if __name__ == "__main__":
    main()

"""Speed of the compiled simulator: coups per second, every bet of a rule set settled.

Deals 8-deck ``standard`` shoes (burn, cut card, last coup; 11 bets settled through the
coup keys) with the default strategy ``flat:banker`` played, on one thread and on two;
the same with the Dragon 7 count (``ez``), which reads every card; and the plain-Python
baseline of ``baseline_simulate.py`` (``Shoe`` + ``settle``) in the same run. Each figure
is the best of ``--repeat`` runs, after a warm-up that loads the compiled kernel. The last
line is JSON.

Run: ``.venv/bin/python bench/bench_simulate.py``
"""

from __future__ import annotations

import argparse
import json
import time

# Run as a script, bench/ is on the path: the baseline lives beside this file.
from baseline_simulate import coups_per_second as baseline_rate

from baccarat.analysis.simulate import simulate
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import load_ruleset


def rate(rules: str, shoes: int, workers: int, strategy: str, repeat: int) -> float:
    """Best coups per second over ``repeat`` runs of ``shoes`` shoes."""
    ruleset = load_ruleset(rules)
    plays = [Strategy.parse(strategy)]
    best = 0.0
    for attempt in range(repeat):
        start = time.perf_counter()
        run = simulate(ruleset, shoes, seed=attempt, strategies=plays, workers=workers)
        best = max(best, run.coups / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=500_000)
    parser.add_argument("--baseline-shoes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    simulate(load_ruleset("ez"), 2_000, seed=0, strategies=[Strategy.parse("count:dragon_7")])

    one = rate("standard", args.shoes, 1, "flat:banker", args.repeat)
    print(f"compiled, 1 thread:  {one / 1e6:,.1f} M coups/s")
    two = rate("standard", args.shoes, 2, "flat:banker", args.repeat)
    print(f"compiled, 2 threads: {two / 1e6:,.1f} M coups/s (x{two / one:.2f})")
    counting = rate("ez", args.shoes, 1, "count:dragon_7", args.repeat)
    print(f"compiled, 1 thread, Dragon 7 count: {counting / 1e6:,.1f} M coups/s")
    base = baseline_rate(load_ruleset("standard"), args.baseline_shoes)
    print(f"plain Python (Shoe + settle): {base:,.0f} coups/s; compiled is x{one / base:,.0f}")
    print(
        json.dumps(
            {
                "simulate_coups_per_second_per_core": round(one),
                "simulate_coups_per_second_2_workers": round(two),
                "simulate_speedup_2_workers": round(two / one, 3),
                "simulate_count_coups_per_second_per_core": round(counting),
                "simulate_baseline_coups_per_second": round(base),
                "simulate_speedup_over_baseline": round(one / base),
            }
        )
    )


if __name__ == "__main__":
    main()

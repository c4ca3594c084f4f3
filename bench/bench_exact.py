"""Speed of the exact odds engine: per shoe, per EV trace, and ``baccarat odds`` from cold.

* ``exact_us_per_composition``: the compiled float path (``FastOdds.evaluate``) pricing every
  bet of the standard rule set (11 bets, the suited pair included) for 20,000 random
  depleted 8-deck shoes at once, after a warm-up; microseconds per shoe, best of 3.
* ``exact_baseline_us_per_composition``: the plain-Python recursive enumeration of
  ``bench/baseline_exact.py`` (signature-only bets; pairs would add little), same run, a
  few shoes; it must agree with the engine (checked).
* ``exact_fraction_ms_per_composition``: the exact path in integers and fractions, for
  reference.
* ``ev_trace_shoes_per_second_per_core``: ``ev_traces`` over 2,000 shuffled 8-deck shoes
  (burn, cut card 14 from the end, one more coup), one process, one thread, best of 3.
* ``odds_cold_seconds``: wall time of ``baccarat odds`` in a new process, once a first run
  has cached the compiled kernels; median of 5 (``odds_exact_cold_seconds`` likewise for
  ``--exact``).

The machine is shared: the figures are what this run measured, printed with the load.
Run: ``.venv/bin/python bench/bench_exact.py``; the last line is JSON.
"""

from __future__ import annotations

import os

# One thread: the figures are per core (numpy's BLAS would otherwise start its own threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_exact import baseline_evs

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts, known
from baccarat.analysis.exact.float_path import FastOdds
from baccarat.analysis.trace import ev_traces
from baccarat.rulesets import load_ruleset

EXE = Path(sys.executable).with_name("baccarat")
SHOES = 20_000
TRACE_SHOES = 2_000
VALUE_OF_CARD = np.array([c % 13 + 1 if c % 13 < 9 else 0 for c in range(52)])


def best(run: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def depleted_shoes(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counts by value, rank and card of ``count`` 8-deck shoes with 0 to 350 cards gone."""
    rng = np.random.default_rng(seed)
    cards = np.empty((count, 52))
    for i in range(count):
        order = rng.permutation(416) % 52
        left = order[rng.integers(0, 351) :]
        cards[i] = np.bincount(left, minlength=52)
    ranks = cards.reshape(count, 4, 13).sum(axis=1)
    values = np.zeros((count, 10))
    for c in range(52):
        values[:, VALUE_OF_CARD[c]] += cards[:, c]
    return values, ranks, cards


def cold_seconds(*args: str, runs: int = 5) -> float:
    command = [str(EXE), "odds", *args]
    subprocess.run(command, capture_output=True, check=True)  # caches the kernels
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    standard = load_ruleset("standard")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    engine = FastOdds(standard, "cards", "ev")
    values, ranks, cards = depleted_shoes(SHOES, seed=1)
    engine.evaluate(values[:64], ranks[:64], cards[:64], compiled=True)  # warm-up, compile
    seconds = best(lambda: engine.evaluate(values, ranks, cards, compiled=True))
    us = seconds / SHOES * 1e6
    print(f"float path, compiled: {us:.2f} us per shoe, all {len(engine.columns)} bets")
    one = best(lambda: engine.evaluate(values[:1], ranks[:1], cards[:1], compiled=False), 20)
    print(f"float path, numpy, one shoe: {one * 1e6:.0f} us")

    sample = [list(map(int, row)) for row in values[:3]]
    base = best(lambda: [baseline_evs(v, standard) for v in sample], 1) / len(sample)
    check = engine.evaluate(values[:3], ranks[:3], cards[:3], compiled=True)
    for row, v in zip(check, sample, strict=True):
        for name, ev in baseline_evs(v, standard).items():
            assert abs(row[engine.columns.index((name, None))] - ev) < 1e-9, name
    print(f"plain-Python baseline: {base * 1e6:,.0f} us per shoe (signature bets only)")

    exact_shoes = [CardCounts(tuple(int(x) for x in row)) for row in cards[:20]]
    fraction = best(lambda: [exact_odds(s, standard) for s in exact_shoes], 1) / 20
    print(f"exact path (integers, fractions): {fraction * 1e3:.1f} ms per shoe")
    assert all(known(s).detail == "cards" for s in exact_shoes)

    rng = np.random.default_rng(2)
    orders = np.array([rng.permutation(416) % 52 for _ in range(TRACE_SHOES)])
    ev_traces(orders[:10], standard.shoe, standard)  # warm-up
    trace_seconds = best(lambda: ev_traces(orders, standard.shoe, standard))
    coups = len(ev_traces(orders[:100], standard.shoe, standard).evs) / 100
    per_second = TRACE_SHOES / trace_seconds
    print(f"EV trace: {per_second:,.0f} shoes per second on one core ({coups:.1f} coups a shoe)")

    cold = cold_seconds()
    cold_exact = cold_seconds("--exact")
    print(f"baccarat odds from cold: {cold:.2f} s (--exact: {cold_exact:.2f} s)")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print(
        json.dumps(
            {
                "exact_us_per_composition": round(us, 2),
                "exact_baseline_us_per_composition": round(base * 1e6),
                "exact_fraction_ms_per_composition": round(fraction * 1e3, 2),
                "exact_numpy_one_shoe_us": round(one * 1e6),
                "ev_trace_shoes_per_second_per_core": round(per_second),
                "odds_cold_seconds": round(cold, 3),
                "odds_exact_cold_seconds": round(cold_exact, 3),
            }
        )
    )


if __name__ == "__main__":
    main()

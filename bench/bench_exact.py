"""Speed of the exact odds engine, each figure beside its yardstick from the same run.

* ``exact_one_composition_us``: one shoe per call on the lean path
  (``fast_engine(rules, "cards", "ev").row(counts)``), CPU microseconds, best of 3 x 20,000
  calls; ``exact_one_composition_evs_us`` the same through ``composition_evs`` (a dict of
  bets); beside them the numpy path for one shoe (``exact_numpy_one_shoe_us``).
* ``exact_us_per_composition``: ``FastOdds.evaluate`` on a batch of 10,000 random depleted
  8-deck shoes, all 11 bets of ``standard`` (the suited pair included), per shoe; beside it
  the numba batch kernel doing the same sums (``exact_numba_batch_us_per_composition``).
* ``exact_baseline_us_per_composition``: the plain-Python recursive enumeration of
  ``bench/baseline_exact.py`` (signature-only bets), same run, a few shoes; it must agree
  with the engine (checked). ``exact_fraction_ms_per_composition``: the exact path.
* ``ev_trace_shoes_per_second_per_core``: ``ev_traces`` over 2,000 shuffled 8-deck shoes
  (burn, cut card 14 from the end, one more coup), per CPU-second (wall beside it).
* ``odds_cold_seconds``: ``baccarat odds --json`` in a new process, caches warm (bytecode,
  the compiled kernels, the rule set's arrays); median of 5, wall and CPU
  (``odds_exact_cold_seconds`` likewise for ``--exact``).

The machine is shared: CPU seconds are printed beside wall seconds, with the load.
Run: ``.venv/bin/python bench/run.py exact`` (or this file); the last line is JSON.
"""

from __future__ import annotations

import os

# One thread: the figures are per core (numpy's BLAS would otherwise start its own threads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_exact import baseline_evs

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts, known
from baccarat.analysis.exact.float_path import composition_evs, fast_engine
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


def cold_seconds(*args: str, runs: int = 5) -> tuple[float, float]:
    """Median wall and CPU seconds of ``baccarat odds ARGS`` in a new process, caches warm
    (bytecode in a cache of its own, as an installed package has one)."""
    command = [str(EXE), "odds", *args]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "baccarat-bench-pycache")
    subprocess.run(command, capture_output=True, check=True, env=env)  # warms the caches
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = children_cpu(), time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, env=env)
        walls.append(time.perf_counter() - start)
        cpus.append(children_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def per_call(run: Callable[[], object], calls: int) -> tuple[float, float]:
    """Best of 3 of (CPU, wall) microseconds per call of ``run``."""
    best_cpu = best_wall = float("inf")
    for _ in range(3):
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            run()
        best_cpu = min(best_cpu, (time.process_time() - cpu) / calls * 1e6)
        best_wall = min(best_wall, (time.perf_counter() - wall) / calls * 1e6)
    return best_cpu, best_wall


def main() -> None:
    standard = load_ruleset("standard")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    figures: dict[str, object] = {}

    engine = fast_engine(standard, "cards", "ev")
    values, ranks, cards = depleted_shoes(SHOES, seed=1)
    native = engine.native() is not None
    print(f"float path in C: {native}")

    # One composition per call: the lean path (counts in, floats out), and the public
    # function that names each bet; the old numpy path for one shoe beside them.
    shoe = CardCounts(tuple(int(x) for x in cards[7]))
    counts = list(shoe.counts)
    row_cpu, row_wall = per_call(lambda: engine.row(counts), 20_000)
    evs_cpu, evs_wall = per_call(lambda: composition_evs(shoe, standard), 20_000)
    one_cpu, one_wall = per_call(
        lambda: engine.evaluate(values[:1], ranks[:1], cards[:1], compiled=False), 200
    )
    print(
        f"one composition per call: engine.row {row_cpu:.1f} us CPU ({row_wall:.1f} wall), "
        f"composition_evs {evs_cpu:.1f} us CPU ({evs_wall:.1f} wall); numpy path, same "
        f"run: {one_cpu:.0f} us CPU ({one_wall:.0f} wall)  [must <= 40 us, goal 15 us]"
    )

    # A batch of 10,000, beside the numba batch kernel it replaces (value sums and pair
    # levels, the same work) when numba is installed.
    batch = 10_000
    engine.evaluate(values[:64], ranks[:64], cards[:64])
    cpu, wall = per_call(lambda: engine.evaluate(values[:batch], ranks[:batch], cards[:batch]), 1)
    us, us_wall = cpu / batch, wall / batch
    numba_us = None
    try:
        from baccarat.analysis.exact.multiset_sums import kernel_levels, kernel_sums

        table = engine._table
        kernel_sums(values[:16], table)
        kernel_levels(ranks[:16], cards[:16], True)
        numba_cpu, _ = per_call(
            lambda: (
                kernel_sums(values[:batch], table),
                kernel_levels(ranks[:batch], cards[:batch], True),
            ),
            1,
        )
        numba_us = numba_cpu / batch
    except ImportError:
        pass
    beside = "" if numba_us is None else f"; numba batch kernel, same run: {numba_us:.2f} us CPU"
    print(
        f"batch of {batch:,}: {us:.2f} us CPU ({us_wall:.2f} wall) per composition, all "
        f"{len(engine.columns)} bets{beside}  [must <= 11 us, goal 5 us]"
    )

    sample = [list(map(int, row)) for row in values[:3]]
    base = best(lambda: [baseline_evs(v, standard) for v in sample], 1) / len(sample)
    check = engine.evaluate(values[:3], ranks[:3], cards[:3])
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
    trace_cpu, trace_wall = per_call(lambda: ev_traces(orders, standard.shoe, standard), 1)
    coups = len(ev_traces(orders[:100], standard.shoe, standard).evs) / 100
    per_second = TRACE_SHOES / (trace_cpu / 1e6)
    print(
        f"EV trace: {per_second:,.0f} shoes per CPU-second ({TRACE_SHOES / (trace_wall / 1e6):,.0f}"
        f" per wall second; {coups:.1f} coups a shoe)  [must >= 2,500, goal 5,000]"
    )

    cold, cold_cpu = cold_seconds("--json")
    cold_exact, cold_exact_cpu = cold_seconds("--exact", "--json")
    print(
        f"baccarat odds --json from cold: {cold:.2f} s wall, {cold_cpu:.2f} s CPU (--exact: "
        f"{cold_exact:.2f} s wall, {cold_exact_cpu:.2f} s CPU)  [must <= 0.8 s, goal 0.4 s]"
    )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    figures |= {
        "exact_one_composition_us": round(row_cpu, 2),
        "exact_one_composition_evs_us": round(evs_cpu, 2),
        "exact_numpy_one_shoe_us": round(one_cpu),
        "exact_us_per_composition": round(us, 2),
        "exact_baseline_us_per_composition": round(base * 1e6),
        "exact_fraction_ms_per_composition": round(fraction * 1e3, 2),
        "ev_trace_shoes_per_second_per_core": round(per_second),
        "odds_cold_seconds": round(cold, 3),
        "odds_cold_cpu_seconds": round(cold_cpu, 3),
        "odds_exact_cold_seconds": round(cold_exact, 3),
    }
    if numba_us is not None:
        figures["exact_numba_batch_us_per_composition"] = round(numba_us, 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

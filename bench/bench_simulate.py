"""Speed of the simulator, each figure beside its yardstick from the same run.

* ``simulate_startup_seconds``: ``baccarat simulate --shoes 10 --json``, the whole process,
  median of 5 (caches warm: bytecode, the compiled kernels, the rule set's tables), and the
  first run with an empty analysis cache (``simulate_first_run_seconds``).
* ``simulate_marginal_ratio_vs_c``: coups per CPU-second of the project's kernel (every
  bet of ``standard`` settled and ``flat:banker`` played, one thread) against the C
  baseline ``bench/c/baseline_simulate.c`` (``cc -O2``), which deals the very same shoes and
  settles the same bets; marginal rates, from runs of two lengths, so start-up cancels.
* ``simulate_whole_ratio_vs_c``: ``baccarat simulate --shoes N --workers 1`` against the C
  baseline's whole process for the same shoes (N = 10^6; ``--quick``: 2·10^5), CPU seconds.
* The C baseline's results are checked against the project's: the same coups, every bet's
  total net to the unit.
* Also: coups per second on one and two threads, with the Dragon 7 count, and the plain
  Python baseline (``baseline_simulate.py``).

Wall seconds are printed beside CPU seconds: the machine may be shared. Start-up runs use a
bytecode cache of their own (``PYTHONPYCACHEPREFIX``), as an installed package has one.
Run: ``.venv/bin/python bench/run.py simulate`` (or this file); the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

# Run as a script, bench/ is on the path: the baseline lives beside this file.
from baseline_simulate import coups_per_second as baseline_rate

from baccarat.analysis.simulate import simulate
from baccarat.analysis.simulate.batches import BATCH_SHOES, batch_state
from baccarat.analysis.simulate.keys import N_KEYS, key_events
from baccarat.analysis.simulate.results import bet_nets
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.shoe import LastCoupRule

HERE = Path(__file__).resolve().parent
EXE = Path(sys.executable).with_name("baccarat")
SOURCE = HERE / "c" / "baseline_simulate.c"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(
    command: list[str], env: dict[str, str], stdin: str | None = None
) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of a child process."""
    cpu, began = children_cpu(), time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - began, children_cpu() - cpu, done.stdout


def cli_env(cache: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "baccarat-bench-pycache")
    if cache is not None:
        env["BACCARAT_CACHE_DIR"] = str(cache)
    return env


def startup() -> tuple[float, float, float, float]:
    """Median wall and CPU of ``simulate --shoes 10 --json`` warm; wall and CPU of a first run."""
    command = [str(EXE), "simulate", "--shoes", "10", "--seed", "1", "--json"]
    with tempfile.TemporaryDirectory() as empty:
        first_wall, first_cpu, _ = timed_run(command, cli_env(Path(empty)))
    timed_run(command, cli_env())  # warms the bytecode and the user's analysis cache
    runs = [timed_run(command, cli_env())[:2] for _ in range(5)]
    return (
        statistics.median(w for w, _ in runs),
        statistics.median(c for _, c in runs),
        first_wall,
        first_cpu,
    )


def scale_of(ruleset: RuleSet) -> int:
    """Every bet's nets are whole multiples of 1/scale."""
    return math.lcm(*(n.denominator for name in ruleset.bets for n in bet_nets(ruleset, name)))


def baseline_input(ruleset: RuleSet, shoes: int, seed: int, strategy: str) -> str:
    """What the C baseline reads: the shoe procedure, the batch states and every bet's net by key."""
    names = list(ruleset.bets)
    scale = scale_of(ruleset)
    columns = []
    for name in names:
        events = np.maximum(key_events(ruleset.bet(name).type), 0)
        nets = bet_nets(ruleset, name)
        columns.append(np.array([int(nets[e] * scale) for e in events.tolist()], dtype=np.int64))
    procedure = ruleset.shoe
    head = [
        procedure.decks,
        int(procedure.burn),
        procedure.cut_card_from_end,
        int(procedure.last_coup is LastCoupRule.FINISH),
        shoes,
        BATCH_SHOES,
        len(names),
        names.index(strategy),
    ]
    batches = -(-shoes // BATCH_SHOES)
    states = [str(int(w)) for i in range(batches) for w in batch_state(seed, i)]
    table = np.stack(columns, axis=1).reshape(N_KEYS * len(names))
    return (
        " ".join(map(str, head))
        + "\n"
        + " ".join(states)
        + "\n"
        + " ".join(map(str, table.tolist()))
    )


def check_same(ruleset: RuleSet, shoes: int, seed: int, baseline: dict[str, object]) -> None:
    """The C baseline dealt the project's shoes: same coups, every bet's net to the unit."""
    run = simulate(ruleset, shoes, seed=seed, strategies=[Strategy("banker")])
    assert run.coups == baseline["coups"], (run.coups, baseline["coups"])
    counts = run.tally.key_counts
    for name, total in zip(ruleset.bets, baseline["nets"], strict=True):  # type: ignore[call-overload]
        events = np.maximum(key_events(ruleset.bet(name).type), 0)
        nets = bet_nets(ruleset, name)
        mine = sum(
            int(c) * nets[e] * scale_of(ruleset)
            for c, e in zip(counts.tolist(), events.tolist(), strict=True)
            if c
        )
        assert mine == Fraction(total), (name, mine, total)


def project_cpu(ruleset: RuleSet, shoes: int, seed: int) -> tuple[int, float, float]:
    """(coups, CPU seconds, wall seconds) of ``simulate`` on one thread, in this process."""
    cpu, wall = time.process_time(), time.perf_counter()
    run = simulate(ruleset, shoes, seed=seed, strategies=[Strategy("banker")], workers=1)
    return run.coups, time.process_time() - cpu, time.perf_counter() - wall


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
    parser.add_argument("--quick", action="store_true", help="2*10^5 shoes for the whole run")
    parser.add_argument("--shoes", type=int, default=200_000)
    parser.add_argument("--baseline-shoes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    figures: dict[str, object] = {}
    standard = load_ruleset("standard")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    wall, cpu, first_wall, first_cpu = startup()
    print(
        f"simulate --shoes 10 --json, whole process: {wall:.2f} s wall, {cpu:.2f} s CPU "
        f"(median of 5); first run, empty cache: {first_wall:.2f} s wall, {first_cpu:.2f} s CPU"
        f"  [must <= 1.0 s, goal 0.5 s]"
    )
    figures |= {
        "simulate_startup_seconds": round(wall, 3),
        "simulate_startup_cpu_seconds": round(cpu, 3),
        "simulate_first_run_seconds": round(first_wall, 3),
    }

    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        print("no C compiler: the C baseline is skipped")
    else:
        with tempfile.TemporaryDirectory() as work:
            binary = str(Path(work) / "baseline_simulate")
            subprocess.run([compiler, "-O2", "-o", binary, str(SOURCE)], check=True)
            env = dict(os.environ)
            small, large = 20_000, 120_000
            base = {}
            for shoes in (small, large):
                stdin = baseline_input(standard, shoes, 5, "banker")
                base[shoes] = timed_run([binary], env, stdin)
            check_same(
                standard,
                2_000,
                5,
                json.loads(
                    timed_run([binary], env, baseline_input(standard, 2_000, 5, "banker"))[2]
                ),
            )
            print("C baseline: the same shoes, every bet's net equal to the project's (checked)")
            c_coups = {s: json.loads(out)["coups"] for s, (_, _, out) in base.items()}
            c_rate = (c_coups[large] - c_coups[small]) / (base[large][1] - base[small][1])
            project_cpu(standard, 2_000, 5)  # loads the kernel
            p_small, p_large = project_cpu(standard, small, 5), project_cpu(standard, large, 5)
            p_rate = (p_large[0] - p_small[0]) / (p_large[1] - p_small[1])
            ratio = p_rate / c_rate
            print(
                f"marginal dealing, 1 core, all bets settled: project {p_rate / 1e6:.1f} M coups per "
                f"CPU-second, C baseline {c_rate / 1e6:.1f} M: x{ratio:.2f}  [must >= 0.8, goal 1.0]"
            )
            print(
                f"  (CPU s for {small:,} / {large:,} shoes: project {p_small[1]:.2f} / {p_large[1]:.2f}"
                f" (wall {p_small[2]:.2f} / {p_large[2]:.2f}); C {base[small][1]:.2f} / "
                f"{base[large][1]:.2f} (wall {base[small][0]:.2f} / {base[large][0]:.2f}))"
            )

            whole = 200_000 if args.quick else 1_000_000
            stdin = baseline_input(standard, whole, 1, "banker")
            c_wall, c_cpu, c_out = timed_run([binary], env, stdin)
            command = [
                str(EXE),
                "simulate",
                "--shoes",
                str(whole),
                "--seed",
                "1",
                "--workers",
                "1",
                "--json",
            ]
            p_wall, p_cpu, p_out = timed_run(command, cli_env())
            assert json.loads(p_out)["coups"] == json.loads(c_out)["coups"]
            whole_ratio = p_cpu / c_cpu
            print(
                f"whole process, {whole:,} shoes, 1 core: project {p_cpu:.2f} s CPU ({p_wall:.2f} s wall),"
                f" C baseline {c_cpu:.2f} s CPU ({c_wall:.2f} s wall): x{whole_ratio:.2f}"
                f"  [must <= 1.5, goal 1.2]"
            )
            figures |= {
                "simulate_marginal_coups_per_cpu_second": round(p_rate),
                "simulate_c_baseline_coups_per_cpu_second": round(c_rate),
                "simulate_marginal_ratio_vs_c": round(ratio, 3),
                "simulate_whole_shoes": whole,
                "simulate_whole_cpu_seconds": round(p_cpu, 3),
                "simulate_whole_c_cpu_seconds": round(c_cpu, 3),
                "simulate_whole_ratio_vs_c": round(whole_ratio, 3),
            }

    simulate(load_ruleset("ez"), 2_000, seed=0, strategies=[Strategy.parse("count:dragon_7")])
    one = rate("standard", args.shoes, 1, "flat:banker", args.repeat)
    print(f"compiled, 1 thread:  {one / 1e6:,.1f} M coups/s (wall)")
    two = rate("standard", args.shoes, 2, "flat:banker", args.repeat)
    print(f"compiled, 2 threads: {two / 1e6:,.1f} M coups/s (x{two / one:.2f})")
    counting = rate("ez", args.shoes, 1, "count:dragon_7", args.repeat)
    print(f"compiled, 1 thread, Dragon 7 count: {counting / 1e6:,.1f} M coups/s")
    base_rate = baseline_rate(standard, args.baseline_shoes)
    print(
        f"plain Python (Shoe + settle): {base_rate:,.0f} coups/s; compiled is x{one / base_rate:,.0f}"
    )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    figures |= {
        "simulate_coups_per_second_per_core": round(one),
        "simulate_coups_per_second_2_workers": round(two),
        "simulate_speedup_2_workers": round(two / one, 3),
        "simulate_count_coups_per_second_per_core": round(counting),
        "simulate_baseline_coups_per_second": round(base_rate),
        "simulate_speedup_over_baseline": round(one / base_rate),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

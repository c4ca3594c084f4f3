"""Run every ``bench/bench_*.py``, print their output, and record the figures.

Each benchmark script prints what it measures and, as its last line, one JSON object of
figures. This runner merges those objects into ``bench/results.json`` and appends a dated
section to ``bench/RESULTS.md`` with the command that produced it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    # `run.py cluster -- --quick`: the names pick the scripts, what follows `--` goes to each.
    names, passed = sys.argv[1:], []
    if "--" in names:
        names, passed = names[: names.index("--")], names[names.index("--") + 1 :]
    if names:
        scripts = [s for s in scripts if any(name in s.name for name in names)]
    figures: dict[str, object] = {}
    failures: list[str] = []
    timings: list[str] = []
    for script in scripts:
        print(f"== {script.name}", flush=True)
        began, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(
            [sys.executable, str(script), *passed], capture_output=True, text=True, check=False
        )
        # The machine may be shared: CPU seconds beside wall seconds tell a slow run from a
        # starved one (the children's CPU: the script and the servers it started).
        wall, used = time.perf_counter() - began, _children_cpu() - cpu
        timings.append(f"{script.name}: {wall:.1f} s wall, {used:.1f} s CPU")
        print(done.stdout, end="", flush=True)
        print(f"({timings[-1]}; load average {os.getloadavg()[0]:.1f})", flush=True)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            failures.append(script.name)
            continue
        last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "{}"
        try:
            figures.update(json.loads(last))
        except json.JSONDecodeError:
            failures.append(f"{script.name} (no JSON figures on its last line)")
    results = HERE / "results.json"
    merged = json.loads(results.read_text()) if results.exists() else {}
    merged.update(figures)
    merged["date"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    merged["machine"] = (
        f"{platform.machine()}, {_cores()} cores, Python {platform.python_version()}"
    )
    results.write_text(json.dumps(merged, indent=2, sort_keys=True) + "\n")
    _append_markdown(figures, failures, timings)
    print(json.dumps(figures, sort_keys=True))
    return 1 if failures else 0


def _cores() -> int:
    return os.cpu_count() or 1


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _append_markdown(figures: dict[str, object], failures: list[str], timings: list[str]) -> None:
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = "make bench" + (f" ({' '.join(sys.argv[1:])})" if len(sys.argv) > 1 else "")
    lines = [
        f"\n## {today}",
        "",
        f"Command: `{command}` on {platform.machine()}, {_cores()} cores.",
        "",
    ]
    lines += [f"Time: {'; '.join(timings)}.", ""]
    lines += ["| figure | value |", "|---|---:|"]
    lines += [f"| {key} | {_fmt(value)} |" for key, value in sorted(figures.items())]
    if failures:
        lines += ["", "Failed: " + ", ".join(failures)]
    path = HERE / "RESULTS.md"
    if not path.exists():
        path.write_text("# Benchmark results\n\nAppended by `make bench` (bench/run.py).\n")
    with path.open("a") as out:
        out.write("\n".join(lines) + "\n")


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


if __name__ == "__main__":
    raise SystemExit(main())

"""The Jepsen-style test of provider mode, longer than ``make test`` runs it.

``tests/provider/test_jepsen_provider.py`` plays 160 rounds in ``make test`` (about a minute on a
loaded two-core machine). Here it plays ``--rounds`` (480 by default: three times the wallet's
fault cycle, each kill and wallet restart three times over) through pytest, with the same
checks: every debit ended once, no id moving money twice, both books and the clients' history
in agreement, ``ledger check`` and ``baccarat wallet reconcile`` clean. It reports whether it
passed, its wall seconds and the CPU seconds of the server and wallet processes.

Usage: python bench/bench_provider_jepsen.py [--rounds 480]
The last line printed is one JSON object of figures (``bench/run.py`` records it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST = "tests/provider/test_jepsen_provider.py"
#: The test's own summary line: "480 rounds in 212.3 s (server and wallet 101.2 CPU-s): ...".
SUMMARY = re.compile(r"(\d+) rounds in ([\d.]+) s \(server and wallet ([\d.]+) CPU-s\)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=480)
    args = parser.parse_args()
    env = {**os.environ, "BACCARAT_JEPSEN_ROUNDS": str(args.rounds)}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-jepsen-") as folder:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-s",
                "-p",
                "no:cacheprovider",
                TEST,
                *("--basetemp", folder),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    wall = time.perf_counter() - began
    found = SUMMARY.search(done.stdout)
    print(found.group(0) if found else done.stdout[-3000:], flush=True)
    passed = done.returncode == 0
    print(
        f"{'passed' if passed else 'FAILED'} in {wall:.1f} s; load average {os.getloadavg()[0]:.1f}"
    )
    figures = {
        "provider_jepsen_rounds": args.rounds,
        "provider_jepsen_passed": int(passed),
        "provider_jepsen_wall_s": round(wall, 1),
    }
    if found:
        figures["provider_jepsen_processes_cpu_s"] = float(found.group(3))
    print(json.dumps(figures, sort_keys=True))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

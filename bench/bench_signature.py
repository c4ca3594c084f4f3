"""The exhaustive proof that the signature is all a bet of the catalogue looks at, timed.

Deals every coup by card values (339,400 sequences) at every pair level each hand's first
cards can have (426,582 coups) and asks every bet type of the catalogue to classify it,
with the very check of ``tests/analysis/test_exact_signature.py`` (which runs it on one coup
of each row of the coup table, and on random coups). It fails (exit 1) if any coup falls
on an event other than its kind's. The last line is JSON.

Run: ``.venv/bin/python bench/bench_signature.py``
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "analysis"))

from test_exact_signature import check, realisations, value_sequences

from baccarat.bets import BET_TYPES


def main() -> None:
    began, cpu = time.perf_counter(), time.process_time()
    checked = check(coup for values in value_sequences() for coup in realisations(values))
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    print(
        f"every coup by values, at every pair level: {checked:,} coups x {len(BET_TYPES)} "
        f"bet types classified as their signature says, in {wall:.1f} s ({used:.1f} s CPU)"
    )
    print(json.dumps({"signature_exhaustive_coups": checked, "signature_exhaustive_s": used}))


if __name__ == "__main__":
    main()

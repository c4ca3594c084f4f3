"""The plain-Python baseline for ``bench_simulate.py``: shoes dealt by ``Shoe``, bets by ``settle``.

Each shoe is shuffled with ``random.Random`` and dealt by :class:`baccarat.shoe.Shoe`
(burn, cut card, last-coup rule); every coup settles one unit (100 minor units) on every
bet the rule set offers with :func:`baccarat.settle.settle`. This is what the compiled
kernel replaces, and what its speed is measured against.

Run alone: ``.venv/bin/python bench/baseline_simulate.py``
"""

from __future__ import annotations

import json
import random
import time

from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.settle import settle
from baccarat.shoe import Shoe

STAKE = 100


def deal_and_settle(ruleset: RuleSet, shoes: int, seed: int) -> tuple[int, int]:
    """Deal ``shoes`` shoes and settle every offered bet on every coup: (coups, net)."""
    rng = random.Random(seed)
    wagers = dict.fromkeys(ruleset.bets, STAKE)
    coups = net = 0
    for _ in range(shoes):
        for coup in Shoe.shuffled(rng=rng, procedure=ruleset.shoe).coups():
            net += settle(wagers, coup, ruleset).net
            coups += 1
    return coups, net


def coups_per_second(ruleset: RuleSet, shoes: int, seed: int = 1) -> float:
    start = time.perf_counter()
    coups, _ = deal_and_settle(ruleset, shoes, seed)
    return coups / (time.perf_counter() - start)


def main() -> None:
    rate = coups_per_second(load_ruleset("standard"), 100)
    print(f"baseline (Shoe + settle, every bet): {rate:,.0f} coups/s")
    print(json.dumps({"simulate_baseline_coups_per_second": round(rate)}))


if __name__ == "__main__":
    main()

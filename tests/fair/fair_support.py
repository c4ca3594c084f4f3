"""Helpers of the fair-shoe tests: a dealt shoe with wagers, and its record.

A plain module rather than a ``conftest.py``: several ``conftest.py`` files without
packages make ``mypy`` see duplicate modules named ``conftest``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import Any

from baccarat.coup import Coup
from baccarat.fair import FairShoe
from baccarat.record import WagerEntry, build_record
from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.settle import settle

SEED = bytes(range(32))
Played = tuple[FairShoe, RuleSet, list[Coup], dict[str, Any]]


def settled_wagers(
    coups: Sequence[Coup], ruleset: RuleSet, stakes: Sequence[tuple[str, str, int]]
) -> list[list[WagerEntry]]:
    """The same wagers (player, bet, stake) on every coup, settled by ``baccarat.settle``."""
    entries = []
    for coup in coups:
        row = []
        for player, bet, stake in stakes:
            (result,) = settle({bet: stake}, coup, ruleset)
            row.append(
                WagerEntry(player, bet, stake, result.returned, result.result.value, result.event)
            )
        entries.append(row)
    return entries


@cache
def _played() -> Played:
    ruleset = load_ruleset("no-commission")
    fair = FairShoe(SEED, "players-agreed", "table-1/shoe-9", 8)
    coups = list(fair.shoe(ruleset.shoe).coups())
    stakes = [("7", "banker", 1000), ("7", "tie", 105), ("42", "player", 2500)]
    wagers = settled_wagers(coups, ruleset, stakes)
    return fair, ruleset, coups, build_record(fair, ruleset, coups, wagers=wagers)


def played() -> Played:
    """An 8-deck no-commission shoe dealt whole, two players betting; a fresh copy of its record."""
    fair, ruleset, coups, record = _played()
    return fair, ruleset, list(coups), copy.deepcopy(record)

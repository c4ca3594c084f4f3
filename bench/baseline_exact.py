"""The plain-Python baseline of ``bench_exact.py``: exact odds by recursive enumeration.

What one would write without the engine's tables: deal every coup of a shoe card by card,
over card values, multiplying the chance of each card as it comes, ``(n[v] - used) / (N -
dealt)`` - about 340,000 sequences for a shoe - and add each one's probability to its
signature (final totals, cards per hand). The EV of each bet that depends on the
signature only then follows from the same event tables and pay tables the engine uses, so
the two compute the same numbers and the benchmark compares only the summing.

Run alone: ``.venv/bin/python bench/baseline_exact.py`` (prints the standard rule set's EVs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from baccarat.analysis.exact.coup_table import signature_id
from baccarat.analysis.exact.pricing import rule_plan
from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.tableau import banker_draws, player_draws

_PLAYER = [player_draws(t) for t in range(10)]
_BANKER = [[banker_draws(t, None if e == 10 else e) for e in range(11)] for t in range(10)]


def signature_probabilities(values: list[int]) -> dict[int, float]:
    """The probability of each signature id for a shoe of counts by value (tens first)."""
    n = list(values)
    total = sum(n)
    out: dict[int, float] = defaultdict(float)

    def draw(weight: float, dealt: int) -> list[tuple[int, float]]:
        # Each value the next card can take, with the chance of the sequence so far times it.
        left = total - dealt
        return [(v, weight * n[v] / left) for v in range(10) if n[v]]

    for p1, w1 in draw(1.0, 0):
        n[p1] -= 1
        for b1, w2 in draw(w1, 1):
            n[b1] -= 1
            for p2, w3 in draw(w2, 2):
                n[p2] -= 1
                for b2, w4 in draw(w3, 3):
                    n[b2] -= 1
                    _third_cards(n, draw, out, (p1 + p2) % 10, (b1 + b2) % 10, w4)
                    n[b2] += 1
                n[p2] += 1
            n[b1] += 1
        n[p1] += 1
    return out


Draw = Callable[[float, int], list[tuple[int, float]]]


def _third_cards(
    n: list[int], draw: Draw, out: dict[int, float], player: int, banker: int, weight: float
) -> None:
    if player >= 8 or banker >= 8 or (not _PLAYER[player] and not _BANKER[banker][10]):
        out[signature_id(player, banker, 2, 2)] += weight
        return
    if not _PLAYER[player]:
        for b3, w in draw(weight, 4):
            out[signature_id(player, (banker + b3) % 10, 2, 3)] += w
        return
    for p3, w5 in draw(weight, 4):
        final = (player + p3) % 10
        if not _BANKER[banker][p3]:
            out[signature_id(final, banker, 3, 2)] += w5
            continue
        n[p3] -= 1
        for b3, w6 in draw(w5, 5):
            out[signature_id(final, (banker + b3) % 10, 3, 3)] += w6
        n[p3] += 1


def baseline_evs(values: list[int], ruleset: RuleSet) -> dict[str, float]:
    """The EV of every bet of ``ruleset`` that depends on the signature only."""
    probabilities = signature_probabilities(values)
    evs = {}
    for plan in rule_plan(ruleset).bets:
        if plan.events.kind != "value":
            continue
        nets = [float(net) for net in plan.nets]
        events = plan.events.by_signature
        evs[plan.name] = sum(p * nets[events[sid]] for sid, p in probabilities.items())
    return evs


if __name__ == "__main__":
    for name, ev in baseline_evs([128, *[32] * 9], load_ruleset("standard")).items():
        print(f"{name:22} {ev:+.6f}")

"""A counter who bets Dragon 7 when the published count says so is flagged; random bettors
with as many bets are not."""

from __future__ import annotations

import random

from integrity_play import Dealt, deal_shoe, fair_shoe

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts
from baccarat.integrity.advantage import ALPHA_PLAYER, binomial_tail, round_evs
from baccarat.integrity.monitor import RoundSeen, TableMonitor, observe_round
from baccarat.rulesets import load_ruleset

EZ = load_ruleset("ez")
#: Tables (seeds), random bettors beside the counter on each.
SEEDS, RANDOM_BETTORS = 10, 5
#: Each table first deals this many shoes with nobody on Dragon 7 (its baseline: how often
#: the bet's EV is positive at each depth), then whole shoes until the count has called
#: this many bets (or MAX_SHOES).
HISTORY, COUNTED_BETS, MAX_SHOES = 4, 40, 16
STAKE = 1_000


def _table(seed: int) -> tuple[bool, list[bool], int, dict[str, object]]:
    """One table: the counter and random bettors with as many Dragon 7 bets, on the same
    coups. Whether the counter was flagged, each random bettor, and the counter's bets."""
    state = TableMonitor.start("t", EZ)
    for shoe in range(HISTORY):
        for number, coup in enumerate(deal_shoe(fair_shoe(f"history-{seed}-{shoe}", EZ), "h")):
            seen = RoundSeen(number, f"h{shoe}", coup.coup, coup.before, {})
            state, _ = observe_round(state, seen, now_ms=number)
    dealt: list[Dealt] = []
    for shoe in range(MAX_SHOES):
        dealt += deal_shoe(fair_shoe(f"count-{seed}-{shoe}", EZ), f"{seed}-{shoe}")
        if sum(coup.count_bets for coup in dealt) >= COUNTED_BETS:
            break
    counted = sum(coup.count_bets for coup in dealt)
    rng = random.Random(f"random-{seed}")
    picks = [set(rng.sample(range(len(dealt)), counted)) for _ in range(RANDOM_BETTORS)]
    flagged: dict[str, object] = {}
    for number, coup in enumerate(dealt):
        bets = {f"random-{i}": {"dragon_7": STAKE} for i, p in enumerate(picks) if number in p}
        if coup.count_bets:
            bets["counter"] = {"dragon_7": STAKE}
        seen = RoundSeen(number, coup.shoe_id, coup.coup, coup.before, bets)
        state, alerts = observe_round(state, seen, now_ms=number)
        for alert in alerts:
            if alert.kind == "advantage":
                flagged[alert.scope] = alert.detail["bets"]
    scores = {score.player: score for score in state.scores()}
    counter = scores["counter"]
    # The evidence is the record's own: bets, positive ones, EVs and the p-value.
    assert counter.bets == counted and len(counter.evidence) == min(counted, 20)
    assert all(seen.stake == STAKE for seen in counter.evidence)
    evidence = {
        "bets": counted,
        "positive": counter.positive,
        "expected": round(counter.expected_positive, 1),
        "p": f"{counter.p_value:.1e}",
        "shoes": len({coup.shoe_id for coup in dealt}),
        "flagged at bet": flagged.get("counter"),
    }
    return (
        "counter" in flagged,
        [f"random-{i}" in flagged for i in range(RANDOM_BETTORS)],
        counted,
        evidence,
    )


def test_the_dragon_7_counter_is_flagged_and_random_bettors_are_not() -> None:
    counters, randoms = [], []
    for seed in range(SEEDS):
        counter, random_flags, _, evidence = _table(seed)
        counters.append(counter)
        randoms += random_flags
        print(
            f"\nseed {seed}: counter {'FLAGGED' if counter else 'not flagged'} {evidence}", end=""
        )
    print(
        f"\ncounter flagged on {sum(counters)}/{len(counters)} tables (>= {COUNTED_BETS} bets each);"
        f" random bettors flagged {sum(randoms)}/{len(randoms)}"
        f" (bound {ALPHA_PLAYER} each)"
    )
    assert all(counters)
    assert sum(randoms) == 0


def test_round_evs_are_the_exact_evs() -> None:
    shoe = fair_shoe("evs", EZ)
    for _ in range(40):
        shoe.deal_coup()
    before = CardCounts.of(shoe.order[shoe.position :])
    exact = exact_odds(before, EZ)
    evs = round_evs(EZ, before)
    assert set(evs) == set(exact.bets) - {"player", "banker", "tie"}
    for bet, ev in evs.items():
        assert abs(ev - float(exact.bets[bet].ev)) < 1e-12


def test_binomial_tail_is_exact_on_small_cases() -> None:
    from fractions import Fraction
    from math import comb

    for n in (1, 7, 30):
        for k in range(n + 2):
            p = Fraction(3, 10)
            want = sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
            assert abs(binomial_tail(n, k, 0.3) - float(want)) < 1e-12

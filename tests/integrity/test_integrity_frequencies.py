"""A biased shoe is flagged within one shoe; fair shoes raise no alert over a long run."""

from __future__ import annotations

import random

from integrity_play import biased_shoe, deal_shoe, fair_shoe

from baccarat.analysis.exact.counts import CardCounts
from baccarat.integrity.frequencies import ALPHA_SHOE, FrequencyState, reference
from baccarat.integrity.monitor import RoundSeen, TableMonitor, observe_round
from baccarat.rulesets import load_ruleset
from baccarat.shoe import Shoe

STANDARD = load_ruleset("standard")
#: The biased source: 8 of the 32 kings of an 8-deck shoe are nines (40 nines, 24 kings).
SWAPPED = 8
#: Stated: such a shoe is flagged within this many rounds of its first coup.
FLAGGED_WITHIN = 90
#: Fair shoes dealt on one table for the false-alarm run (about 80 rounds each).
FAIR_SHOES = 200


def _play(
    state: TableMonitor, shoe: Shoe, shoe_id: str, first: int
) -> tuple[TableMonitor, int, list[str]]:
    """Deal the shoe on the monitored table (no bets: ``evs={}``); the rounds and the alerts."""
    keys, number = [], first
    for dealt in deal_shoe(shoe, shoe_id):
        number += 1
        seen = RoundSeen(number, shoe_id, dealt.coup, dealt.before, {}, evs={})
        state, alerts = observe_round(state, seen, now_ms=number)
        keys += [f"{number - first}:{alert.key}" for alert in alerts]
    return state, number, keys


def test_a_shoe_with_nines_for_kings_is_flagged_within_one_shoe() -> None:
    firsts = []
    for seed in range(6):
        rng = random.Random(f"biased-{seed}")
        state = TableMonitor.start("t", STANDARD)
        state, _, keys = _play(state, biased_shoe(rng, STANDARD, SWAPPED), "b", 0)
        assert keys, f"seed {seed}: a biased shoe went unflagged"
        first = int(keys[0].split(":", 1)[0])
        firsts.append(first)
        assert any("rank:9" in key or "rank:K" in key for key in keys)
    print(f"\nbiased shoes ({SWAPPED} kings as nines): first alert at rounds {firsts}")
    assert max(firsts) <= FLAGGED_WITHIN


def test_fair_shoes_raise_no_alert_over_a_long_run() -> None:
    state = TableMonitor.start("t", STANDARD)
    rounds, alerts = 0, []
    # Calibration: at each shoe's end, the share of its tested events at p <= 1%.
    tested = low = 0
    for seed in range(FAIR_SHOES):
        state, rounds, keys = _play(state, fair_shoe(f"fair-{seed}", STANDARD), f"f{seed}", rounds)
        alerts += keys
        shoe_stats = [stat for stat in state.frequencies.stats("shoe") if stat.tested]
        tested += len(shoe_stats)
        low += sum(stat.p_value <= 0.01 for stat in shoe_stats)
    shoes = state.frequencies.shoes
    tests = state.frequencies.reference.tests
    print(
        f"\nfair: {len(alerts)} alerts in {shoes} shoes, {rounds} rounds, {tests} events a scope"
        f" (false-alarm rate {len(alerts) / shoes:.4f} a shoe; bound {ALPHA_SHOE} a shoe)"
    )
    print(f"calibration: {low / tested:.4f} of {tested} shoe-end tests at p <= 0.01 (nominal 0.01)")
    assert alerts == []
    assert low / tested <= 0.02
    # The counts are real: the cumulative scope holds every round, and the smallest p-value
    # seen is not absurdly small (the tests are not blind).
    stats = state.frequencies.stats("cumulative")
    assert stats[0].trials == rounds
    assert min(stat.p_value for stat in stats if stat.tested) > 1e-6


def test_a_tally_agrees_with_a_direct_count() -> None:
    ref = reference(STANDARD)
    state = FrequencyState.start(ref)
    shoe = fair_shoe("tally", STANDARD)
    coups = list(shoe.coups())
    for coup in coups:
        state = state.observe(coup)
    stats = {stat.event: stat for stat in state.stats("shoe")}
    assert stats["banker"].observed == sum(c.winner.value == "banker" for c in coups)
    assert stats["player_pair:pair"].observed == sum(c.player_pair for c in coups)
    assert stats["natural:banker"].observed == sum(c.banker.natural for c in coups)
    assert stats["rank:9"].observed == sum(
        card.rank.symbol == "9" for c in coups for card in c.cards
    )
    assert stats["banker"].expected == len(coups) * float(ref.exact[0])
    # Next shoe: the shoe scope starts again, the cumulative one keeps it all.
    after = state.next_shoe()
    assert after.stats("shoe")[0].trials == 0 and after.stats("cumulative")[0].trials == len(coups)


def test_full_shoe_before_is_what_the_dealer_passes() -> None:
    """The dealer passes the cards left before each coup; the first one is a full shoe
    less the burned cards."""
    shoe = fair_shoe("before", STANDARD)
    first = next(deal_shoe(shoe, "x"))
    assert first.before.total == 416 - len(shoe.burned)
    assert CardCounts.full(8).total == 416

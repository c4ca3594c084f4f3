"""A new kind of bet is one classifier in one place: the catalogue (``baccarat.bets``).

Two bets the built-in catalogue does not have are registered here and offered by a rule file
that extends ``standard``. Nothing else is told about them, yet settlement pays them by their
pay tables, the exact engine prices them (checked against every ordering of a small shoe)
and the compiled simulator settles them coup by coup as their classifiers do, at the
frequencies the exact engine gives.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from baccarat.analysis.exact import CardCounts, exact_odds, fast_odds, full_shoe
from baccarat.analysis.exact.signature import bet_events
from baccarat.analysis.simulate import Strategy, compile_job, kernel, keys, simulate
from baccarat.analysis.simulate.results import bet_nets
from baccarat.bets import BET_TYPES, LOSE, BetType, register, unregister
from baccarat.cards import parse_cards
from baccarat.coup import Coup, Outcome, deal, deal_from
from baccarat.rulesets import RuleSet, RuleSetError, load_ruleset
from baccarat.settle import settle
from baccarat.shoe import Shoe


def _banker_three_cards(coup: Coup) -> str:
    return "win" if coup.winner is Outcome.BANKER and len(coup.banker.cards) == 3 else LOSE


def _odd_total(coup: Coup) -> str:
    return "odd" if (coup.player_total + coup.banker_total) % 2 else "even"


NEW_BETS = (
    BetType(
        "banker_three_cards",
        "Banker Three Cards",
        "Banker wins holding three cards.",
        ("win", LOSE),
        _banker_three_cards,
    ),
    BetType(
        "odd_total",
        "Odd Total",
        "The two final totals add up to an odd number.",
        ("odd", "even"),
        _odd_total,
    ),
)
HOUSE = """\
name = "house"
extends = "standard"

[bets.banker_three_cards]
pays = { win = "5:2" }

[bets.odd_total]
pays = { odd = "19:20" }
"""


@pytest.fixture
def house(tmp_path: Path) -> Iterator[RuleSet]:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE)
    with pytest.raises(RuleSetError, match="unknown bet"):
        load_ruleset(path)  # not in the catalogue yet
    for bet in NEW_BETS:
        register(bet)
    try:
        yield load_ruleset(path)
    finally:
        for bet in NEW_BETS:
            unregister(bet.name)
    assert not set(BET_TYPES) & {bet.name for bet in NEW_BETS}


def test_settle_pays_the_new_bets_by_their_pay_tables(house: RuleSet) -> None:
    assert list(house.bets)[-2:] == ["banker_three_cards", "odd_total"]
    stakes = {"banker_three_cards": 1000, "odd_total": 1000, "banker": 1000}
    cases = [
        # Player 5 draws a 3 (8); Banker 2 draws a 7 (9): a three-card Banker win, 17 odd.
        ("5h 2c Kd Js 3c 7d", {"banker_three_cards": 3500, "odd_total": 1950, "banker": 1950}),
        # Player 2 draws a 9 (1); Banker stands on 5 and wins with two cards; 6 even.
        ("2h 5c Jd Ks 9s", {"banker_three_cards": 0, "odd_total": 0, "banker": 1950}),
        # Player's natural 9 beats Banker's 6: 15 odd.
        ("9h 3c Kd 3s", {"banker_three_cards": 0, "odd_total": 1950, "banker": 0}),
    ]
    for cards, returned in cases:
        settlement = settle(stakes, deal(parse_cards(cards)), house)
        assert {w.bet: w.returned for w in settlement} == returned, cards
    events = [w.event for w in settle(stakes, deal(parse_cards("2h 5c Jd Ks 9s")), house)]
    assert events == [LOSE, "even", "win"]  # in the order of the wagers


SMALL_SHOE = "As Ad 5c 5c Kh 7h Qs 9d"


def test_the_exact_engine_prices_them_as_every_ordering_of_a_small_shoe_deals(
    house: RuleSet,
) -> None:
    cards = parse_cards(SMALL_SHOE)
    counted: dict[str, Counter[str]] = {bet.name: Counter() for bet in NEW_BETS}
    arrangements = Counter(itertools.permutations(cards, 6))
    for sequence, n in arrangements.items():
        coup = deal_from(iter(sequence).__next__)
        for bet in NEW_BETS:
            counted[bet.name][bet.classify(coup)] += n
    total = math.perm(len(cards), 6)
    odds = exact_odds(CardCounts.of(cards), house)
    floats = fast_odds(CardCounts.of(cards), house)
    for bet in NEW_BETS:
        assert bet_events(bet).kind == "value"  # totals and cards held: the signature
        expected = {e: Fraction(counted[bet.name][e], total) for e in bet.events}
        assert dict(odds.bets[bet.name].event_probabilities) == expected
        assert floats.bets[bet.name].ev == pytest.approx(float(odds.bets[bet.name].ev), abs=1e-12)
    assert odds.bets["odd_total"].ev == expected["odd"] * Fraction(19, 20) - expected["even"]


def test_the_simulator_settles_them_coup_by_coup_as_their_classifiers(house: RuleSet) -> None:
    job, _ = compile_job(house, 1, 0)
    by_key = {bet.name: keys.key_events(bet) for bet in NEW_BETS}
    rng = np.random.default_rng(41)
    seen: dict[str, set[str]] = {bet.name: set() for bet in NEW_BETS}
    for _ in range(20):
        order = rng.permutation(np.tile(keys.CARD_CODES, 8))
        record = kernel.play_order(order, True, 14, False, job.strategies)[0]
        shoe = Shoe([keys.card_of_code(c) for c in order], burn=True, cut_card_from_end=14)
        for (_, _, key, _), coup in zip(record.tolist(), shoe.coups(), strict=True):
            for bet in NEW_BETS:
                event = bet.events[by_key[bet.name][key]]
                assert event == bet.classify(coup), (bet.name, str(coup))
                seen[bet.name].add(event)
    assert seen == {bet.name: set(bet.events) for bet in NEW_BETS}


def test_the_simulated_frequencies_are_the_exact_probabilities(house: RuleSet) -> None:
    strategies = [Strategy.parse("flat:banker_three_cards"), Strategy.parse("odd_total")]
    run = simulate(house, 20_000, seed=2026, strategies=strategies, workers=2)
    odds = exact_odds(full_shoe(house), house).bets
    n = run.coups
    for bet in NEW_BETS:
        estimate = run.bet(bet.name)
        assert estimate.exact == float(odds[bet.name].ev)
        assert abs(estimate.ev - estimate.exact) < 4 * estimate.stderr, bet.name
        for event, p in odds[bet.name].event_probabilities.items():
            spread = math.sqrt(n * p * (1 - p))
            assert abs(estimate.events.get(event, 0) - n * p) < 4.5 * spread, (bet.name, event)
    for report, bet in zip(run.reports, NEW_BETS, strict=True):
        nets = bet_nets(house, bet.name)
        counts = run.event_counts(bet.name)
        assert report.net == sum(
            (c * net for c, net in zip(counts, nets, strict=True)), Fraction(0)
        )
        assert report.bets_made == n

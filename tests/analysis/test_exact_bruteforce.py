"""The exact engine against brute force: every ordering of tiny shoes, dealt and settled.

For shoes of 6 to 9 cards (with repeated ranks, ten-valued ranks side by side, and the
same card twice, as two decks give), every ordered choice of six cards is dealt with
``baccarat.coup.deal_from`` and settled with ``baccarat.settle`` (stake 100, which every
built-in payout divides exactly). Counting each arrangement once is the ways convention,
so the engine's ways, event probabilities and EVs must equal these counts exactly.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import cached_property
from math import perm
from types import MappingProxyType

import pytest

from baccarat.analysis.exact import bet_evs, exact_odds, ways
from baccarat.analysis.exact.counts import CardCounts, ShoeCounts, ValueCounts, known
from baccarat.analysis.exact.float_path import fast_odds
from baccarat.analysis.exact.signature import bet_events
from baccarat.bets import BET_TYPES, LOSE, BetType
from baccarat.cards import Card, parse_cards
from baccarat.coup import Coup, Outcome, deal_from
from baccarat.payout import Payout
from baccarat.rulesets import BUILTIN_RULESETS, BetRule, RuleSet, load_ruleset
from baccarat.settle import settle
from baccarat.shoe import ShoeProcedure

SHOES = [
    "As Ad 5c 5c Kh Kh Qs 9d",  # the same card twice (perfect pairs), tens of two ranks
    "Tc Jd Qh Ks Tc Tc 3d 8h",  # four ten-valued ranks: pairs of rank, not of value
    "4c 4d 4h 6s 6s 2c 3h",
    "Kc Kc Qd 5h 5h 5h",
    "9s 9s 9s 8h 8h 8h Kc Kc 2d",
]
STAKE = 100


def arrangements(cards: list[Card]) -> Counter[tuple[Card, ...]]:
    """Every ordered choice of six of the cards (equal cards give equal tuples, counted)."""
    return Counter(itertools.permutations(cards, 6))


def dealt(sequence: tuple[Card, ...]) -> Coup:
    draw: Iterator[Card] = iter(sequence)
    return deal_from(lambda: next(draw))


class Brute:
    """Counts of every outcome, event and settled amount over all arrangements of a shoe."""

    def __init__(self, text: str) -> None:
        self.cards = parse_cards(text)
        self.coups = [(dealt(seq), n) for seq, n in arrangements(self.cards).items()]
        self.total = sum(n for _, n in self.coups)
        assert self.total == perm(len(self.cards), 6)

    def outcomes(self) -> Counter[Outcome]:
        counted: Counter[Outcome] = Counter()
        for coup, n in self.coups:
            counted[coup.winner] += n
        return counted

    @cached_property
    def events(self) -> dict[str, Counter[str]]:
        """How many arrangements fall on each event, for every bet type of the catalogue."""
        counted: dict[str, Counter[str]] = {name: Counter() for name in BET_TYPES}
        for coup, n in self.coups:
            for name, bet in BET_TYPES.items():
                counted[name][bet.classify(coup)] += n
        return counted

    def settled_evs(self, ruleset: RuleSet) -> dict[str, Fraction]:
        net: Counter[str] = Counter()
        for coup, n in self.coups:
            for wager in settle(dict.fromkeys(ruleset.bets, STAKE), coup, ruleset):
                net[wager.bet] += n * wager.net
        return {name: Fraction(net[name], STAKE * self.total) for name in ruleset.bets}


def every_bet() -> RuleSet:
    """A rule set offering all 14 bets of the catalogue, with the built-in pay tables."""
    rules: dict[str, BetRule] = {}
    for name in BUILTIN_RULESETS:
        rules |= {bet: rule for bet, rule in load_ruleset(name).bets.items() if bet not in rules}
    assert set(rules) == set(BET_TYPES)
    offered = MappingProxyType({bet: rules[bet] for bet in BET_TYPES})
    return RuleSet("everything", "Every bet", "", ShoeProcedure(), offered, (1,))


EVERY_BET = every_bet()
BRUTE = {text: Brute(text) for text in SHOES}


@pytest.mark.parametrize("text", SHOES)
def test_ways_equal_brute_force(text: str) -> None:
    brute = BRUTE[text]
    counted = brute.outcomes()
    shoe = CardCounts.of(brute.cards)
    for counts in (shoe, shoe.by_rank(), ValueCounts(known(shoe).values)):
        got = ways(counts)
        assert (got.banker, got.player, got.tie, got.total) == (
            counted[Outcome.BANKER],
            counted[Outcome.PLAYER],
            counted[Outcome.TIE],
            brute.total,
        )


@pytest.mark.parametrize("rules", BUILTIN_RULESETS)
@pytest.mark.parametrize("text", SHOES)
def test_every_event_equals_brute_force(text: str, rules: str) -> None:
    brute, ruleset = BRUTE[text], load_ruleset(rules)
    shoe = CardCounts.of(brute.cards)
    views: list[ShoeCounts] = [shoe, shoe.by_rank(), ValueCounts(known(shoe).values)]
    for counts in views:
        odds = exact_odds(counts, ruleset)
        assert set(odds.bets) | set(odds.omitted) == set(ruleset.bets)
        for name, bet in odds.bets.items():
            counted = brute.events[name]
            expected = {e: Fraction(counted[e], brute.total) for e in bet.event_probabilities}
            assert dict(bet.event_probabilities) == expected, (name, counts)
            assert sum(counted.values()) == brute.total
    # Counts by card price every bet; by rank all but suited pairs; by value no pair bet.
    assert exact_odds(views[0], ruleset).omitted == {}
    assert set(exact_odds(views[1], ruleset).omitted) == {"perfect_pair"} & set(ruleset.bets)
    pair_bets = {"player_pair", "banker_pair", "either_pair", "perfect_pair"}
    assert set(exact_odds(views[2], ruleset).omitted) == pair_bets & set(ruleset.bets)


@pytest.mark.parametrize("text", SHOES)
def test_every_ev_equals_settling_every_arrangement(text: str) -> None:
    brute = BRUTE[text]
    odds = exact_odds(CardCounts.of(brute.cards), EVERY_BET)
    assert {name: bet.ev for name, bet in odds.bets.items()} == brute.settled_evs(EVERY_BET)


@pytest.mark.parametrize("rules", ["no-commission", "ez"])
def test_banker_variants_equal_settling_every_arrangement(rules: str) -> None:
    ruleset = load_ruleset(rules)
    for text in SHOES[2:4]:
        brute = BRUTE[text]
        assert bet_evs(ruleset, CardCounts.of(brute.cards)) == brute.settled_evs(ruleset)


def _pair_and_banker(coup: Coup) -> str:
    return "win" if coup.banker_pair and coup.winner is Outcome.BANKER else LOSE


def test_a_bet_on_pairs_and_totals_at_once_is_priced_exactly() -> None:
    # No bet of the catalogue depends on both the pair levels and the totals; one that
    # did would take the engine's general path. A made-up bet shows that path is exact.
    bet = BetType("pair_and_banker", "Pair and Banker", "", ("win", LOSE), _pair_and_banker)
    standard = load_ruleset("standard")
    rules = {"banker": standard.bets["banker"]}
    rules["pair_and_banker"] = BetRule(bet, MappingProxyType({"win": Payout.parse("30:1")}), 1, 9)
    ruleset = RuleSet("mixed", "Mixed", "", ShoeProcedure(), MappingProxyType(rules), (1,))
    assert bet_events(bet).kind == "mixed"
    for text in SHOES[:3]:
        brute = BRUTE[text]
        wins = sum(n for coup, n in brute.coups if _pair_and_banker(coup) == "win")
        shoe = CardCounts.of(brute.cards)
        exact = exact_odds(shoe, ruleset).bets["pair_and_banker"]
        assert exact.event_probabilities["win"] == Fraction(wins, brute.total)
        assert exact.ev == Fraction(31 * wins, brute.total) - 1
        fast = fast_odds(shoe, ruleset).bets["pair_and_banker"]
        assert fast.ev == pytest.approx(float(exact.ev), abs=1e-12)

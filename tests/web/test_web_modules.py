"""The page's own arithmetic, run in the browser and checked against the Python core.

The ES modules are imported in a real page and fed many inputs at once: money formatting
(Hypothesis), odds (every A:B up to 40:40), hand totals (every two- and three-card rank
combination), card codes (all 52 and the ``10`` spelling), the roads' view window (every small
case), and what the bet spots say for every built-in rule set.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page
from web_support import call_module, money

from baccarat.cards import RANKS, SUITS, Card, full_deck
from baccarat.coup import hand_total
from baccarat.roads import window
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset

pytest_plugins = ("web_support",)


@pytest.fixture(scope="module")
def page(module_page: Page) -> Page:
    return module_page


def call(page: Page, module: str, function: str, calls: list[list[Any]]) -> list[Any]:
    return call_module(page, module, function, calls)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(10**15), 10**15), min_size=1, max_size=60))
def test_money_is_minor_units_with_two_decimals(page: Page, amounts: list[int]) -> None:
    shown = call(page, "format.js", "money", [[amount] for amount in amounts])
    assert shown == [money(amount) for amount in amounts]


def expected_odds(text: str) -> str:
    """Odds as printed: whole odds as N:1, a short decimal as D:1, else the reduced fraction."""
    if text == "half":
        return "1:2"
    win, stake = (int(part) for part in text.split(":"))
    value = Fraction(win, stake)
    for places in (0, 1, 2):
        scaled = value * 10**places
        if scaled.denominator == 1:
            whole, frac = divmod(scaled.numerator, 10**places)
            return f"{whole}:1" if places == 0 else f"{whole}.{frac:0{places}d}:1"
    return f"{value.numerator}:{value.denominator}"


def test_odds_for_every_small_fraction(page: Page) -> None:
    texts = [f"{a}:{b}" for a, b in product(range(1, 41), repeat=2)] + ["half"]
    assert call(page, "format.js", "odds", [[text] for text in texts]) == [
        expected_odds(text) for text in texts
    ]
    assert call(page, "format.js", "odds", [["19:20"], ["27:50"], ["3:2"]]) == [
        "0.95:1",
        "0.54:1",
        "1.5:1",
    ]


def test_hand_totals_for_every_rank_combination(page: Page) -> None:
    hands = [
        [Card(rank, SUITS[i % 4]).code for i, rank in enumerate(ranks)]
        for size in (2, 3)
        for ranks in product(RANKS, repeat=size)
    ]
    totals = call(page, "cards.js", "handTotal", [[codes] for codes in hands])
    assert totals == [hand_total(Card.parse(code) for code in codes) for codes in hands]


def test_every_card_code_is_read(page: Page) -> None:
    codes = [card.code for card in full_deck()] + ["10h", "10s", "ad", "kC"]
    read = call(page, "cards.js", "parseCard", [[code] for code in codes])
    for code, seen in zip(codes, read, strict=True):
        card = Card.parse(code)
        assert seen == {"rank": card.rank.symbol, "suit": card.suit.value, "point": card.point}
    assert call(page, "cards.js", "parseCard", [["Xs"], ["A"], ["1h"]]) == [None, None, None]
    assert call(page, "cards.js", "cardName", [["Qh"], ["Td"], ["As"]]) == [
        "Queen of hearts",
        "10 of diamonds",
        "Ace of spades",
    ]


def test_the_roads_view_window_matches_the_roads_module(page: Page) -> None:
    cases = [[drawn, width] for drawn in range(61) for width in range(1, 31)]
    starts = call(page, "roads.js", "windowStart", cases)
    assert starts == [window(drawn, width).start for drawn, width in cases]


#: What each spot's headline says, from the pay tables of the rules (not from the page's code).
HEADLINES = {
    "standard": {
        "player": "1:1",
        "banker": "0.95:1",
        "tie": "8:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
        "either_pair": "5:1",
        "perfect_pair": "25:1",
        "dragon_bonus_player": "up to 30:1",
        "dragon_bonus_banker": "up to 30:1",
        "big": "0.54:1",
        "small": "1.5:1",
    },
    "no-commission": {"banker": "1:1", "super_6": "12:1", "tie": "8:1"},
    "ez": {"banker": "1:1", "dragon_7": "40:1", "panda_8": "25:1"},
    "tie-9": {"tie": "9:1", "banker": "0.95:1"},
}
NOTES = {
    ("no-commission", "banker"): "Banker win on 6 pays 1:2",
    ("ez", "banker"): "Banker three-card 7 pushes",
    ("standard", "player"): "",
    ("standard", "banker"): "",
}


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_every_spot_states_its_payout(page: Page, name: str) -> None:
    ruleset = load_ruleset(name)
    # The pay tables as the API sends them (str of each payout).
    pays = {bet: {e: str(p) for e, p in rule.pays.items()} for bet, rule in ruleset.bets.items()}
    summaries = dict(
        zip(
            pays,
            call(page, "bets.js", "payoutSummary", [[table] for table in pays.values()]),
            strict=True,
        )
    )
    # A rupiah rule set pays as its dollar one: the same spots, the same words.
    for bet, headline in HEADLINES[name.removesuffix("-idr")].items():
        assert summaries[bet]["headline"] == headline, bet
    for (rules, bet), note in NOTES.items():
        if rules == name.removesuffix("-idr"):
            assert summaries[bet]["note"] == note, bet


def test_refusals_are_put_in_words(page: Page) -> None:
    offered = {
        "tie": {"label": "Tie", "min_stake": 100, "max_stake": 200_000},
        "player": {"label": "Player", "min_stake": 500, "max_stake": 1_000_000},
    }
    errors = [
        {"status": 409, "code": "betting_closed", "message": "betting on round 3 is closed"},
        {
            "status": 422,
            "code": "above_maximum",
            "message": "tie: 250000 in all on this spot is above the maximum of 200000",
        },
        {
            "status": 422,
            "code": "below_minimum",
            "message": "player: 100 on this spot is below the minimum of 500",
        },
        {
            "status": 422,
            "code": "insufficient_funds",
            "message": "the bets total 1000 but the balance is 999",
        },
        {"status": 0, "code": "network", "message": "x"},
    ]
    said = call(page, "refusals.js", "explain", [[error, offered, 999] for error in errors])
    assert said == [
        "Betting is closed for this round. Wait for the next one.",
        "Limit exceeded: Tie takes at most $2,000.00 per round.",
        "Below the minimum: Player takes at least $5.00.",
        "Not enough balance for that bet: you have $9.99.",
        "The table server cannot be reached. Nothing was placed.",
    ]

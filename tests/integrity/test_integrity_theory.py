"""The report's theoretical hold is the exact house edge × turnover, to the minor unit."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.analysis.exact import bet_evs
from baccarat.integrity.theory import BetLine, bet_theory, report, theoretical_hold
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset
from baccarat.settle import settle
from baccarat.shoe import Shoe

RULESETS = [load_ruleset(name) for name in BUILTIN_RULESETS]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_theoretical_hold_is_exact_edge_times_turnover(data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(RULESETS))
    bets = data.draw(st.lists(st.sampled_from(list(ruleset.bets)), min_size=1, unique=True))
    turnover = {bet: data.draw(st.integers(0, 10**12)) for bet in bets}
    evs = bet_evs(ruleset)  # the exact engine itself, for a full shoe
    exact = sum((-evs[bet] * amount for bet, amount in turnover.items()), Fraction(0))
    hold = theoretical_hold(ruleset, turnover)
    assert hold.exact == exact
    assert hold.minor == round(exact)  # the nearest minor unit, a half to the even one
    assert abs(hold.minor - exact) <= Fraction(1, 2)
    lines = {bet: BetLine(amount, amount, 0) for bet, amount in turnover.items()}
    assert report(ruleset, lines).theoretical == hold


def test_edges_and_variances_are_the_published_ones() -> None:
    theory = bet_theory(load_ruleset("standard"))
    # Wizard of Odds, 8 decks: Banker 1.06%, Player 1.24%, Tie 14.36% (8:1), Tie SD 2.64.
    assert f"{float(theory['banker'].edge):.4%}" == "1.0579%"
    assert f"{float(theory['player'].edge):.4%}" == "1.2351%"
    assert f"{float(theory['tie'].edge):.4%}" == "14.3596%"
    assert f"{math.sqrt(theory['tie'].variance):.2f}" == "2.64"
    for bet in theory.values():
        assert bet.edge == -bet.ev and bet.variance > 0


def test_a_fair_table_s_result_sits_within_its_z() -> None:
    """Every offered bet of EZ, one stake of 1,000 a coup, over four fair shoes: the actual
    gross (settled by ``settle``) is within 4 standard deviations of the theory."""
    ruleset = load_ruleset("ez")
    stakes = dict.fromkeys(ruleset.bets, 1_000)
    gross = dict.fromkeys(ruleset.bets, 0)
    coups = 0
    for seed in range(4):
        shoe = Shoe.shuffled(rng=random.Random(seed), procedure=ruleset.shoe)
        for coup in shoe.coups():
            coups += 1
            for wager in settle(stakes, coup, ruleset):
                gross[wager.bet] -= wager.net
    lines = {bet: BetLine(1_000 * coups, coups * 1_000**2, gross[bet]) for bet in ruleset.bets}
    result = report(ruleset, lines)
    print(
        f"\n{coups} coups: gross {result.gross}, theory {result.theoretical.minor}, "
        f"z {result.z:.2f}"
    )
    assert result.z is not None and abs(result.z) < 4
    for line in result.lines:
        assert line.z is not None and abs(line.z) < 4.5, line

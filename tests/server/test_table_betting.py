"""Bet validation: offered bets, per-spot limits (with what is already placed), all or nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.bets import BET_NAMES
from baccarat.refusals import RefusalCode
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, load_ruleset
from baccarat.table import BetError, add_bets, check_bets, doubled, total_staked

RULESETS = [load_ruleset(name) for name in BUILTIN_RULESETS]
RICH = 10**12


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("spot", BET_NAMES)
def test_every_catalogue_bet_is_accepted_exactly_where_offered(ruleset: RuleSet, spot: str) -> None:
    if ruleset.offers(spot):
        low = ruleset.bets[spot].min_stake
        assert check_bets(ruleset, {spot: low}, balance=RICH) == {spot: low}
    else:
        with pytest.raises(BetError) as refused:
            check_bets(ruleset, {spot: 1000}, balance=RICH)
        assert refused.value.code is RefusalCode.NOT_OFFERED


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_limit_boundaries_of_every_offered_bet(ruleset: RuleSet) -> None:
    for spot, rule in ruleset.bets.items():
        low, high = rule.min_stake, rule.max_stake
        assert check_bets(ruleset, {spot: low}, balance=RICH)
        assert check_bets(ruleset, {spot: high}, balance=RICH)
        for stake, code in (
            (low - 1, RefusalCode.BELOW_MINIMUM),
            (high + 1, RefusalCode.ABOVE_MAXIMUM),
        ):
            if stake <= 0:
                code = RefusalCode.BAD_STAKE
            with pytest.raises(BetError) as refused:
                check_bets(ruleset, {spot: stake}, balance=RICH)
            assert refused.value.code is code
        # What is already on the spot counts toward both limits.
        assert check_bets(ruleset, {spot: 1}, balance=RICH, placed={spot: low - 1 or low})
        with pytest.raises(BetError) as refused:
            check_bets(ruleset, {spot: 1}, balance=RICH, placed={spot: high})
        assert refused.value.code is RefusalCode.ABOVE_MAXIMUM


@pytest.mark.parametrize("stake", [0, -1, True, 1.5, "100", None])
def test_a_stake_is_a_positive_integer(stake: object) -> None:
    with pytest.raises(BetError) as refused:
        check_bets(RULESETS[0], {"player": stake}, balance=RICH)  # type: ignore[dict-item]
    assert refused.value.code is RefusalCode.BAD_STAKE


def test_unknown_and_empty_requests() -> None:
    with pytest.raises(BetError) as refused:
        check_bets(RULESETS[0], {"hot": 100}, balance=RICH)
    assert refused.value.code is RefusalCode.UNKNOWN_BET
    with pytest.raises(BetError) as refused:
        check_bets(RULESETS[0], {}, balance=RICH)
    assert refused.value.code is RefusalCode.EMPTY


spots = st.sampled_from((*BET_NAMES, "bogus"))
requests = st.dictionaries(spots, st.integers(min_value=-10, max_value=2_000_000), max_size=5)


@given(
    ruleset=st.sampled_from(RULESETS),
    request=requests,
    placed=st.dictionaries(st.sampled_from(BET_NAMES), st.integers(0, 300_000), max_size=4),
    balance=st.integers(min_value=0, max_value=3_000_000),
)
def test_a_request_is_accepted_whole_exactly_when_every_spot_and_the_balance_allow(
    ruleset: RuleSet, request: dict[str, int], placed: dict[str, int], balance: int
) -> None:
    def spot_ok(spot: str, stake: int) -> bool:
        if spot not in ruleset.bets or stake <= 0:
            return False
        rule = ruleset.bets[spot]
        return rule.min_stake <= placed.get(spot, 0) + stake <= rule.max_stake

    expected = (
        bool(request)
        and all(spot_ok(s, v) for s, v in request.items())
        and sum(request.values()) <= balance
    )
    if not expected:
        with pytest.raises(BetError) as refused:
            check_bets(ruleset, request, balance=balance, placed=placed)
        if refused.value.code is RefusalCode.INSUFFICIENT_FUNDS:
            assert all(spot_ok(s, v) for s, v in request.items())
            assert sum(request.values()) > balance
        return
    accepted = check_bets(ruleset, request, balance=balance, placed=placed)
    assert accepted == request and total_staked(accepted) <= balance


@given(st.dictionaries(st.sampled_from(BET_NAMES), st.integers(1, 10**9), max_size=6))
def test_doubled_and_add_bets(bets: dict[str, int]) -> None:
    assert doubled(bets) == add_bets(bets, bets)
    assert total_staked(doubled(bets)) == 2 * total_staked(bets)
    assert add_bets({}, bets) == bets

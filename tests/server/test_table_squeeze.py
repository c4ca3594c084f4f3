"""Who squeezes a face-down card (``baccarat.table.squeeze``): the largest stake on the card's
hand, the earliest bettor among equals, the dealer when nobody bet on it; and who may peel or
turn the card being squeezed."""

from __future__ import annotations

import itertools
import math

from hypothesis import given
from hypothesis import strategies as st

from baccarat.refusals import RefusalCode
from baccarat.table.squeeze import EDGES, Squeeze, Stake, peel_refusal, squeezer, squeezers

PLAYERS = ("ann", "bob", "cy")
SPOTS = ("player", "banker", "tie", "player_pair")


def test_every_small_table_goes_to_the_largest_stake_then_the_earliest_bet() -> None:
    """Three players, each with no bet or one of three stakes on the Player, in every order
    of betting: the squeezer has the largest stake, and among equals bet first."""
    for stakes in itertools.product((0, 100, 200, 300), repeat=len(PLAYERS)):
        placed = [(p, s) for p, s in zip(PLAYERS, stakes, strict=True) if s]
        for order in itertools.permutations(placed):
            bets = [Stake(i, p, "player", s) for i, (p, s) in enumerate(order)]
            found = squeezer(bets, "player")
            if not placed:
                assert found is None
                continue
            top = max(s for _, s in placed)
            first_top = next(p for p, s in order if s == top)
            assert found == first_top, (order, found)
            assert squeezer(bets, "banker") is None


bets_strategy = st.lists(
    st.builds(
        Stake,
        order=st.integers(1, 10_000),
        player_id=st.sampled_from(PLAYERS),
        spot=st.sampled_from(SPOTS),
        stake=st.integers(1, 10_000),
    ),
    max_size=12,
    unique_by=lambda bet: bet.order,
)


@given(bets_strategy, st.sampled_from(("player", "banker")), st.randoms())
def test_the_squeezer_is_the_largest_sum_on_the_hand_whatever_the_list_order(
    bets: list[Stake], hand: str, random: object
) -> None:
    on_hand = [bet for bet in bets if bet.spot == hand]
    totals = {p: sum(b.stake for b in on_hand if b.player_id == p) for p in PLAYERS}
    firsts = {p: min((b.order for b in on_hand if b.player_id == p), default=0) for p in PLAYERS}
    found = squeezer(bets, hand)  # type: ignore[arg-type]
    if not on_hand:
        assert found is None
        return
    assert found is not None
    assert totals[found] == max(totals.values())
    equals = [p for p in PLAYERS if totals[p] == totals[found]]
    assert firsts[found] == min(firsts[p] for p in equals)
    shuffled = list(bets)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert squeezer(shuffled, hand) == found  # type: ignore[arg-type]
    assert squeezers(bets).get(hand) == found  # type: ignore[call-overload]


def test_only_the_squeezer_may_peel_or_turn_the_card_being_squeezed() -> None:
    squeeze = Squeeze(9, "banker", 2, "ann", deadline=5_000)
    assert squeeze.refuse("ann", 9, "banker", 2) is None
    for player in ("bob", None):
        refusal = squeeze.refuse(player, 9, "banker", 2)
        assert refusal is not None and refusal.code is RefusalCode.NOT_YOUR_SQUEEZE
    for place in ((8, "banker", 2), (9, "player", 2), (9, "banker", 1)):
        refusal = squeeze.refuse("ann", *place)
        assert refusal is not None and refusal.code is RefusalCode.NOT_NOW
    dealer = Squeeze(9, "banker", 2, None, deadline=5_000)
    refusal = dealer.refuse("ann", 9, "banker", 2)
    assert refusal is not None and refusal.code is RefusalCode.NOT_YOUR_SQUEEZE
    assert not squeeze.expired(4_999) and squeeze.expired(5_000) and squeeze.expired(9_999)


@given(st.text(max_size=20), st.floats(allow_nan=True, allow_infinity=True))
def test_a_peel_is_a_known_edge_and_a_progress_from_nothing_to_all(
    edge: str, progress: float
) -> None:
    refusal = peel_refusal(edge, progress)
    fine = edge in EDGES and math.isfinite(progress) and 0.0 <= progress <= 1.0
    assert (refusal is None) == fine
    if refusal is not None:
        assert refusal.code is RefusalCode.INVALID_REQUEST
    for known in EDGES:
        assert peel_refusal(known, 0.0) is None and peel_refusal(known, 1.0) is None


def test_the_feed_takes_the_edges_the_core_knows() -> None:
    from typing import get_args

    from baccarat.server.events import Edge

    assert get_args(Edge) == EDGES

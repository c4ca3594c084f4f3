"""The round state machine: every operation from every phase, exhaustively and by Hypothesis."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import parse_cards
from baccarat.table import ACTIONS, Phase, Round, TransitionError

CARDS = parse_cards("4h 3c 2d 2s 7h")  # one coup: Player 6, Banker 2 draws a 7
OPENED, CLOSES = 1_000, 16_000

# The allowed transitions written out by hand from the description (not read from
# ACTIONS): open -> closed -> dealt -> settled, void from anything before settled.
EXPECTED = {
    (Phase.OPEN, "bet"),
    (Phase.OPEN, "close"),
    (Phase.CLOSED, "deal"),
    (Phase.DEALT, "settle"),
    (Phase.OPEN, "void"),
    (Phase.CLOSED, "void"),
    (Phase.DEALT, "void"),
}
NEXT = {"close": Phase.CLOSED, "deal": Phase.DEALT, "settle": Phase.SETTLED, "void": Phase.VOIDED}


def in_phase(phase: Phase) -> Round:
    """A round brought to ``phase`` through the public operations only."""
    r = Round.open(1, opened_at=OPENED, closes_at=CLOSES)
    steps = {
        Phase.OPEN: [],
        Phase.CLOSED: ["close"],
        Phase.DEALT: ["close", "deal"],
        Phase.SETTLED: ["close", "deal", "settle"],
        Phase.VOIDED: ["void"],
    }[phase]
    for step in steps:
        r = apply(r, step, CLOSES)
    assert r.phase is phase
    return r


def apply(r: Round, action: str, now: int) -> Round:
    if action == "bet":
        if not r.accepts_bets(now):
            raise TransitionError("betting closed")
        return r
    if action == "close":
        return r.close(now)
    if action == "deal":
        return r.deal(CARDS)
    if action == "settle":
        return r.settle()
    return r.void("test")


@pytest.mark.parametrize(("phase", "action"), list(itertools.product(Phase, ACTIONS)))
def test_every_operation_from_every_phase(phase: Phase, action: str) -> None:
    r = in_phase(phase)
    allowed = (phase, action) in EXPECTED
    assert r.allows(action) is allowed
    now = CLOSES if action == "close" else CLOSES - 1
    if not allowed:
        with pytest.raises(TransitionError):
            apply(r, action, now)
        return
    after = apply(r, action, now)
    assert after.phase is NEXT.get(action, phase)
    assert r.phase is phase  # the old state is untouched (immutable)


def test_the_table_of_actions_is_the_expected_one() -> None:
    assert {(p, a) for a, phases in ACTIONS.items() for p in phases} == EXPECTED


def test_final_phases() -> None:
    assert {p for p in Phase if p.final} == {Phase.SETTLED, Phase.VOIDED}


@given(now=st.integers(min_value=-(10**12), max_value=10**12))
def test_bets_only_strictly_before_the_deadline_and_close_only_at_or_after(now: int) -> None:
    r = in_phase(Phase.OPEN)
    assert r.accepts_bets(now) is (now < CLOSES)
    if now < CLOSES:
        with pytest.raises(TransitionError):
            r.close(now)
    else:
        assert r.close(now).phase is Phase.CLOSED
        assert not r.close(now).accepts_bets(now)


def test_cards_must_make_exactly_one_coup() -> None:
    closed = in_phase(Phase.CLOSED)
    with pytest.raises(ValueError, match="more cards"):
        closed.deal(CARDS[:3])
    with pytest.raises(ValueError, match="left over"):
        closed.deal([*CARDS, *parse_cards("9c")])
    assert closed.phase is Phase.CLOSED


def test_a_void_needs_a_reason_and_a_round_needs_a_window() -> None:
    with pytest.raises(ValueError, match="reason"):
        in_phase(Phase.OPEN).void("  ")
    with pytest.raises(ValueError, match="after"):
        Round.open(1, opened_at=5, closes_at=5)
    voided = in_phase(Phase.CLOSED).void("dealer error")
    assert voided.void_reason == "dealer error" and voided.cards is None


@given(st.lists(st.sampled_from([*ACTIONS, "tick"]), max_size=12), st.data())
def test_random_operation_sequences_keep_the_invariants(
    actions: list[str], data: st.DataObject
) -> None:
    r = Round.open(7, opened_at=OPENED, closes_at=CLOSES)
    now = OPENED
    history = [r.phase]
    for action in actions:
        if action == "tick":
            now += data.draw(st.integers(min_value=0, max_value=20_000))
            continue
        before = r
        try:
            r = apply(r, action, now)
        except TransitionError:
            assert r == before  # a refused operation changes nothing
            assert (r.phase, action) not in EXPECTED or (
                action in ("bet", "close") and r.phase is Phase.OPEN
            )
            continue
        assert (before.phase, action) in EXPECTED
        if r.phase is not before.phase:
            history.append(r.phase)
        # Cards exist exactly from dealt on (never in a round voided before the deal).
        assert (r.cards is not None) is (Phase.DEALT in history)
        if before.phase.final:
            pytest.fail("a final round changed")
    # Phases only ever move forward.
    order = [Phase.OPEN, Phase.CLOSED, Phase.DEALT, Phase.SETTLED]
    forward = [p for p in history if p is not Phase.VOIDED]
    assert forward == order[: len(forward)]
    assert history.count(Phase.VOIDED) <= 1 and (
        Phase.VOIDED not in history or history[-1] is Phase.VOIDED
    )

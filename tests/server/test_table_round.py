"""The round state machine: every operation from every phase, exhaustively and by Hypothesis,
and the events each one makes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import Card, full_deck, parse_cards
from baccarat.coup import deal, deal_from
from baccarat.table import (
    ACTIONS,
    BetsClosed,
    CardSqueezed,
    CardTurned,
    Phase,
    ResultShown,
    RevealedCard,
    Round,
    RoundEvent,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    TransitionError,
    drawn_order,
    reveal_order,
    turn_order,
)

CARDS = parse_cards("4h 3c 2d 2s 7h")  # one coup: Player 6, Banker 2 draws a 7
OPENED, CLOSES = 1_000, 16_000

# The allowed transitions written out by hand from the rules (not read from ACTIONS):
# open -> closed -> dealt -> settled, void from anything before settled; a closed round takes
# its cards one by one or all at once; the cards of a dealt round are squeezed and turned.
EXPECTED = {
    (Phase.OPEN, "bet"),
    (Phase.OPEN, "close"),
    (Phase.CLOSED, "deal"),
    (Phase.CLOSED, "draw"),
    (Phase.CLOSED, "turn"),
    (Phase.DEALT, "squeeze"),
    (Phase.DEALT, "turn"),
    (Phase.DEALT, "settle"),
    (Phase.OPEN, "void"),
    (Phase.CLOSED, "void"),
    (Phase.DEALT, "void"),
}
NEXT = {"close": Phase.CLOSED, "deal": Phase.DEALT, "settle": Phase.SETTLED, "void": Phase.VOIDED}


def in_phase(phase: Phase) -> Round:
    """A round brought to ``phase`` through the public operations only."""
    r = Round.open(1, opened_at=OPENED, closes_at=CLOSES).round
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


def next_card(r: Round) -> RevealedCard:
    """The next card to turn of a dealt round, or of the part of a coup a closed round has
    drawn (a studio turns each card as it comes); the first one once all are turned; any card
    of ``CARDS`` for a round without cards (the operation is refused)."""
    if r.cards is None and r.drawn:
        order = drawn_order(r.drawn)
    else:
        order = reveal_order(deal(CARDS if r.cards is None else r.cards))
    return next((card for card in order if not r.turned(card)), order[0])


def apply(r: Round, action: str, now: int) -> Round:
    if action == "bet":
        if not r.accepts_bets(now):
            raise TransitionError("betting closed")
        return r
    if action == "close":
        return r.close(now).round
    if action == "deal":
        return r.deal(CARDS, now).round
    if action == "draw":
        return r.draw(CARDS[len(r.drawn) % len(CARDS)], now).round
    if action == "squeeze":
        return r.squeeze(next_card(r)).round
    if action == "turn":
        return r.turn(next_card(r)).round
    if action == "settle":
        return r.settle(now).round
    return r.void("test", now).round


@pytest.mark.parametrize(("phase", "action"), list(itertools.product(Phase, ACTIONS)))
def test_every_operation_from_every_phase(phase: Phase, action: str) -> None:
    r = in_phase(phase)
    if (phase, action) == (Phase.CLOSED, "turn"):  # a studio turns the cards drawn so far
        r = r.draw(CARDS[0], CLOSES).round
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
        assert r.close(now).round.phase is Phase.CLOSED
        assert not r.close(now).round.accepts_bets(now)


def test_cards_must_make_exactly_one_coup() -> None:
    closed = in_phase(Phase.CLOSED)
    with pytest.raises(ValueError, match="more cards"):
        closed.deal(CARDS[:3], CLOSES)
    with pytest.raises(ValueError, match="left over"):
        closed.deal([*CARDS, *parse_cards("9c")], CLOSES)
    assert closed.phase is Phase.CLOSED


def test_a_void_needs_a_reason_and_a_round_needs_a_window() -> None:
    with pytest.raises(ValueError, match="reason"):
        in_phase(Phase.OPEN).void("  ", CLOSES)
    with pytest.raises(ValueError, match="after"):
        Round.open(1, opened_at=5, closes_at=5)
    voided = in_phase(Phase.CLOSED).void("dealer error", CLOSES).round
    assert voided.void_reason == "dealer error" and voided.cards is None


@given(st.lists(st.sampled_from([*ACTIONS, "tick"]), max_size=12), st.data())
def test_random_operation_sequences_keep_the_invariants(
    actions: list[str], data: st.DataObject
) -> None:
    r = Round.open(7, opened_at=OPENED, closes_at=CLOSES).round
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
            assert (
                (r.phase, action) not in EXPECTED
                or (action in ("bet", "close") and r.phase is Phase.OPEN)
                or (action in ("squeeze", "turn") and r.turned(next_card(r)))  # all turned
                or (action == "turn" and r.phase is Phase.CLOSED and not r.drawn)  # none drawn
                or (action == "deal" and len(r.drawn) > 0)  # part drawn: only draw goes on
            )
            continue
        assert (before.phase, action) in EXPECTED
        if r.phase is not before.phase:
            history.append(r.phase)
        # Cards exist exactly from dealt on (never in a round voided before the deal), and are
        # what was drawn; a closed round holds part of its coup at most.
        assert (r.cards is not None) is (Phase.DEALT in history)
        assert r.drawn == tuple(CARDS[: len(r.drawn)])
        assert r.cards is None or r.cards == r.drawn
        if r.phase is Phase.CLOSED:
            assert r.due() is not None and len(r.drawn) < len(CARDS)
        if before.phase.final:
            pytest.fail("a final round changed")
    # Phases only ever move forward.
    order = [Phase.OPEN, Phase.CLOSED, Phase.DEALT, Phase.SETTLED]
    forward = [p for p in history if p is not Phase.VOIDED]
    assert forward == order[: len(forward)]
    assert history.count(Phase.VOIDED) <= 1 and (
        Phase.VOIDED not in history or history[-1] is Phase.VOIDED
    )


def test_each_transition_reports_what_it_did() -> None:
    opened, events = Round.open(3, opened_at=OPENED, closes_at=CLOSES)
    assert events == (RoundOpened(3, OPENED, CLOSES),)
    closed, events = opened.close(CLOSES + 5)
    assert events == (BetsClosed(3, CLOSES + 5),) and closed.closed_at == CLOSES + 5
    dealt, events = closed.deal(CARDS, CLOSES + 9)
    assert events == () and dealt.dealt_at == CLOSES + 9  # the cards stay secret
    assert dealt.cards == tuple(CARDS) and dealt.revealed == 0
    settled, events = dealt.settle(CLOSES + 20)
    assert events == (RoundSettled(3, dealt.coup.winner, CLOSES + 20),)
    assert settled.finished_at == CLOSES + 20 and settled.void_reason is None
    voided, events = dealt.void("shuffle error", CLOSES + 30)
    assert events == (RoundVoided(3, "shuffle error", CLOSES + 30),)
    assert (voided.phase, voided.void_reason, voided.finished_at) == (
        Phase.VOIDED,
        "shuffle error",
        CLOSES + 30,
    )
    assert voided.cards == tuple(CARDS)  # a void keeps the cards it had


@given(st.permutations(full_deck()), st.sampled_from(["face-up", "face-down"]))
def test_turning_every_card_shows_each_once_and_the_result_with_the_last(
    order: list[Card], dealing: str
) -> None:
    cards = iter(order)
    coup = deal_from(lambda: next(cards))
    r = in_phase(Phase.CLOSED).deal(coup.cards, CLOSES).round
    turns = turn_order(coup, "face-down" if dealing == "face-down" else "face-up")
    seen: list[RoundEvent] = []
    for number, card in enumerate(turns, 1):
        squeezed, events = r.squeeze(card)
        assert squeezed == r and events == (CardSqueezed(1, card.hand, card.position),)
        r, events = r.turn(card)
        assert r.turned(card) and r.phase is Phase.DEALT
        last = number == len(turns)
        assert events == (
            (CardTurned(1, card), ResultShown(1, coup)) if last else (CardTurned(1, card),)
        )
        seen.extend(events)
        with pytest.raises(TransitionError, match="turned already"):
            r.turn(card)
        with pytest.raises(TransitionError, match="turned already"):
            r.squeeze(card)
    assert [e.card for e in seen if isinstance(e, CardTurned)] == list(turns)
    assert r.settle(CLOSES + 1).round.phase is Phase.SETTLED


def test_a_card_of_another_coup_is_refused() -> None:
    r = in_phase(Phase.DEALT)
    first = reveal_order(r.coup)[0]
    for stranger in (
        RevealedCard(first.hand, first.position, first.index, parse_cards("Kd")[0]),
        RevealedCard("banker", 0, 0, first.card),  # the right card in the wrong place
        RevealedCard("player", 2, 7, first.card),
    ):
        for operation in (r.turn, r.squeeze):
            with pytest.raises(TransitionError, match="not a card of this coup"):
                operation(stranger)

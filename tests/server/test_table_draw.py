"""Dealing card by card: a round drawing from a card source gives the same coup, events and
settlement as the whole coup dealt at once, for every ordering of a small shoe and for many
random shoes; the fair shoe's records are byte for byte those of the committed vectors; a card
that cannot be next is refused by the round, which is left unchanged."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, full_deck, parse_cards
from baccarat.coup import Coup, Slot, deal_from
from baccarat.fair import FairShoe
from baccarat.record import WagerEntry, build_record
from baccarat.rulesets import load_ruleset
from baccarat.settle import settle
from baccarat.shoe import CardCounts, Shoe, ShoeError
from baccarat.table import (
    FairShoeSource,
    Phase,
    PushedSource,
    Round,
    RoundEvent,
    TransitionError,
    recovery_action,
    turn_order,
    undealt_action,
)

STANDARD = load_ruleset("standard")
STAKES = {bet: 100 * (i + 1) for i, bet in enumerate(STANDARD.bets)}
VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parent.parent / "fair" / "vectors.json").read_text(encoding="utf-8")
)


def closed(round_id: int = 1) -> Round:
    return Round.open(round_id, opened_at=0, closes_at=10).round.close(10).round


def whole(coup: Coup) -> Round:
    """The round as a whole coup dealt at once leaves it: closed, then dealt with its cards,
    built field by field (not through ``draw``)."""
    return dataclasses.replace(
        closed(), phase=Phase.DEALT, cards=coup.cards, drawn=coup.cards, dealt_at=20
    )


def drawn_from(source: FairShoeSource, round_id: int = 1) -> tuple[Round, list[Slot]]:
    """A closed round given cards by ``source`` until its coup is complete; the slots filled."""
    r, slots = closed(round_id), []
    while (slot := r.due()) is not None:
        slots.append(slot)
        left = source.left
        card = source.take()
        r, events = r.draw(card, 20, left=left)
        assert events == ()  # nothing leaves the table while cards are drawn
    source.coup_done()
    return r, slots


def reveal(r: Round, dealing: str) -> list[RoundEvent]:
    events: list[RoundEvent] = []
    for card in turn_order(r.coup, "face-down" if dealing == "face-down" else "face-up"):
        events.extend(r.squeeze(card).events)
        r, made = r.turn(card)
        events.extend(made)
    events.extend(r.settle(30).events)
    return events


def assert_same_as_whole(r: Round, slots: list[Slot], coup: Coup) -> None:
    assert r == whole(coup)
    # Each card went to the slot the tableau gave it.
    hands: dict[str, list[Card]] = {"player": [], "banker": []}
    for slot, card in zip(slots, r.drawn, strict=True):
        assert slot.position == len(hands[slot.hand])
        hands[slot.hand].append(card)
    assert (tuple(hands["player"]), tuple(hands["banker"])) == (
        coup.player.cards,
        coup.banker.cards,
    )
    for dealing in ("face-up", "face-down"):
        assert reveal(r, dealing) == reveal(whole(coup), dealing)
    assert settle(STAKES, r.coup, STANDARD) == settle(STAKES, coup, STANDARD)


def test_every_ordering_of_an_eight_card_shoe_draws_the_coup_dealt_at_once() -> None:
    cards = parse_cards("Ah As 3d 5c 6h 7s 9d Kc")  # a pair, a natural, every kind of draw
    seen_lengths = set()
    for order in itertools.permutations(cards):
        coup = Shoe(order, burn=False, cut_card_from_end=0).deal_coup()
        r, slots = drawn_from(FairShoeSource(Shoe(order, burn=False, cut_card_from_end=0)))
        assert r.coup == coup and r.drawn == coup.cards
        assert slots[:4] == [("player", 0), ("banker", 0), ("player", 1), ("banker", 1)]
        if len(coup.cards) not in seen_lengths or list(order[:2]) == cards[:2]:
            # The full check (reveal, events, settlement) on each length's first and on one
            # ordering in 56: the coup and its slots are checked on every one.
            assert_same_as_whole(r, slots, coup)
        seen_lengths.add(len(coup.cards))
    assert seen_lengths == {4, 5, 6}


def test_ten_thousand_random_shoes_draw_the_coups_dealt_at_once() -> None:
    rng = random.Random(20261202)
    deck = [Card.from_index(c) for c in range(52 * 8)]
    for _ in range(10_000):
        order = rng.sample(deck, 12)
        reference = Shoe(order, burn=False, cut_card_from_end=0)
        source = FairShoeSource(Shoe(order, burn=False, cut_card_from_end=0))
        for _coup in range(2):
            coup = reference.deal_coup()
            r, _ = drawn_from(source)
            assert r.coup == coup
            assert settle(STAKES, r.coup, STANDARD) == settle(STAKES, coup, STANDARD)
        assert source.given == tuple(order[: reference.position])


@settings(max_examples=25)
@given(st.randoms(use_true_random=False), st.sampled_from(["standard", "ez", "no-commission"]))
def test_a_whole_shoe_drawn_card_by_card_ends_where_dealing_it_ends(
    rng: random.Random, name: str
) -> None:
    ruleset = load_ruleset(name)
    reference = Shoe.shuffled(rng=random.Random(rng.random()), procedure=ruleset.shoe)
    source = FairShoeSource(Shoe.from_procedure(reference.order, ruleset.shoe))
    coups = list(reference.coups())
    for coup in coups:
        assert not source.finished
        assert drawn_from(source)[0].coup == coup
    assert source.finished and source.given == reference.order[: reference.position]
    assert source.left == CardCounts.of(reference.order[reference.position :])


def record_hash(vector: dict[str, Any], name: str) -> tuple[int, str]:
    """The sha256 of a vector shoe's full record, its coups drawn card by card by rounds."""
    ruleset = load_ruleset(name)
    fair = FairShoe(
        bytes.fromhex(vector["server_seed"]),
        vector["client_seed"],
        vector["shoe_id"],
        int(vector["decks"]),
    )
    source = FairShoeSource(fair.shoe(dataclasses.replace(ruleset.shoe, decks=fair.decks)))
    coups: list[Coup] = []
    while not source.finished:
        coups.append(drawn_from(source, len(coups) + 1)[0].coup)
    wagers = [
        [
            WagerEntry("p1", w.bet, w.stake, w.returned, result=w.result.value, event=w.event)
            for w in settle(STAKES_OF[name], coup, ruleset)
        ]
        for coup in coups
    ]
    text = json.dumps(build_record(fair, ruleset, coups, wagers=wagers), sort_keys=True)
    return len(coups), hashlib.sha256(text.encode()).hexdigest()


STAKES_OF = {
    name: {bet: 100 * (i + 1) for i, bet in enumerate(load_ruleset(name).bets)}
    for name in ("standard", "ez", "no-commission")
}

# The sha256 of each record as the fair shoe dealt it whole, coup by coup (``Shoe.deal_coup``),
# before rounds drew their cards one at a time: the records must not change by a byte.
RECORD_HASHES = {
    ("one-deck", "standard"): (
        7,
        "59f5da065f37c4ae1fb2d5250b82d070dade4f7a298c1690fa91b60b71841749",
    ),
    ("one-deck", "ez"): (7, "1e7c24a295419c09657074ccbf1124a8cb55480167080f079cbf6cff831c8645"),
    ("one-deck", "no-commission"): (
        7,
        "66a99af30e3dbecbbfb08a8c7a74c5227e4bcc926ea20170136d11483c765a06",
    ),
    ("eight-decks", "standard"): (
        82,
        "5e106d21232f8935006a466cffe4e84df59ca9df05f9d0153fcbfb79f5a4a732",
    ),
    ("eight-decks", "ez"): (82, "cbc2c47a0c416c5a3467410556b4aeadc4778bb4365125da9d219a6b02058e26"),
    ("eight-decks", "no-commission"): (
        82,
        "9d9d72cebc8ddb4b7f6984ab05b35fa4756277c883e36d2702ad5f542b571a8a",
    ),
    ("zero-seed-empty-client-utf8-id", "standard"): (
        79,
        "ceab952068d9ea5d2e4ccb9d65a3fa59f49cb96c70504f7fd680a90e294f03fe",
    ),
    ("zero-seed-empty-client-utf8-id", "ez"): (
        79,
        "640ad4841985a2fcca0d0808e42249cfa8662db8f2504ebbcd8b72b6b15f6428",
    ),
    ("zero-seed-empty-client-utf8-id", "no-commission"): (
        79,
        "e9a8dc77e2367ad7c6291da3bdf4c9f33355d93cb54b7ccb458149809d3a6049",
    ),
    ("rejection", "standard"): (
        81,
        "57cf25d41661078c89f011412db8ea657505f1ff17300ef7335cf22b3a2531de",
    ),
    ("rejection", "ez"): (81, "235b12de29799f4bd65eca9437d98a91874c307d003c441bd98da9f18a26ee82"),
    ("rejection", "no-commission"): (
        81,
        "87fdc3855a1139684b9bd2bb3403f4b21a92996a46a6cccc34f36f89ad9c3a97",
    ),
}


@pytest.mark.parametrize(("shoe", "ruleset"), sorted(RECORD_HASHES))
def test_the_fair_shoes_records_are_byte_identical(shoe: str, ruleset: str) -> None:
    [vector] = [v for v in VECTORS["shoes"] if v["name"] == shoe]
    assert record_hash(vector, ruleset) == RECORD_HASHES[(shoe, ruleset)]


def test_a_card_that_cannot_be_next_is_refused_and_nothing_changes() -> None:
    coup_cards = parse_cards("4h 3c 2d 2s 7h")
    r = closed()
    left = CardCounts.full(1).without(parse_cards("Ah"))
    with pytest.raises(TransitionError, match="holds no more Ah"):
        r.draw(Card.parse("Ah"), 20, left=left)
    assert not r.can_draw(Card.parse("Ah"), left) and r.can_draw(Card.parse("As"), left)
    for card in coup_cards:
        r = r.draw(card, 20).round
    assert r.phase is Phase.DEALT and r.due() is None
    with pytest.raises(TransitionError, match="dealt round"):
        r.draw(Card.parse("9c"), 21)
    with pytest.raises(TransitionError, match="open round"):
        Round.open(2, opened_at=0, closes_at=10).round.draw(coup_cards[0], 5)
    partial = closed().draw(coup_cards[0], 20).round
    with pytest.raises(TransitionError, match="drawn already"):
        partial.deal(coup_cards, 20)
    voided = partial.void("misdeal", 25).round  # a round may be voided mid-draw
    assert voided.phase is Phase.VOIDED and voided.drawn == (coup_cards[0],)
    assert voided.cards is None


def test_a_pushed_source_waits_and_tallies_what_it_gave() -> None:
    source = PushedSource(decks=1)
    assert source.take() is None and source.left.total == 52
    r = closed()
    for card in parse_cards("4h 2c 5d 6s"):  # a natural: four cards
        source.push(card)
        left = source.left
        taken = source.take()
        assert taken == card
        r = r.draw(taken, 20, left=left).round
    assert r.phase is Phase.DEALT and source.take() is None
    source.push(Card.parse("4h"))
    left = source.left
    assert source.take() == Card.parse("4h")
    assert closed().refuse_draw(Card.parse("4h"), left) == "the shoe holds no more 4h"
    assert not source.finished
    source.end()
    assert source.finished


def test_resuming_a_fair_source_after_stored_cards() -> None:
    shoe = Shoe.shuffled(rng=random.Random(5))
    source = FairShoeSource(Shoe(shoe.order))
    first, second = source.deal_coup(), source.deal_coup()
    resumed = FairShoeSource.resume(Shoe(shoe.order), [first, second[:3]])
    assert resumed.given == source.given[: len(resumed.given)]
    rest = [resumed.take() for _ in second[3:]]
    resumed.coup_done()
    assert tuple(rest) == second[3:] and resumed.given == source.given
    with pytest.raises(ShoeError, match="stored card 2"):
        FairShoeSource.resume(Shoe(shoe.order), [(first[0], first[0])])


def test_recovery_of_every_phase_with_and_without_cards() -> None:
    for phase, has_cards, drawn in itertools.product(Phase, (False, True), (0, 3)):
        action = recovery_action(phase, has_cards=has_cards, drawn=drawn)
        if phase.final:
            expected = "none"
        elif has_cards:
            expected = "resume"
        elif phase is Phase.CLOSED and drawn:
            expected = "draw"
        else:
            expected = "void"
        assert action == expected, (phase, has_cards, drawn)
        undealt = undealt_action(phase, has_cards=has_cards)
        assert undealt == {"resume": "settle", "draw": "void"}.get(
            recovery_action(phase, has_cards=has_cards), recovery_action(phase, has_cards=has_cards)
        )


@given(st.permutations(full_deck()))
def test_due_slots_follow_the_tableau_for_any_deck_order(order: list[Card]) -> None:
    cards = iter(order)
    coup = deal_from(lambda: next(cards))
    r, slots = drawn_from(FairShoeSource(Shoe(order, burn=False, cut_card_from_end=0)))
    assert_same_as_whole(r, slots, coup)

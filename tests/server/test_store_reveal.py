"""The stored views of a round follow its recorded reveal, card by card, in any process.

A round's coup is stored whole when it closes; ``record_reveal`` marks the cards shown.
The history, the round as stored and the record of the shoe in play show only those, and
the result only with all of them.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator

import pytest
from store_support import SEED, force_close, migrated, new_round, players, setup_table, shoe_now

from baccarat.rulesets import load_ruleset
from baccarat.store import Database, db_now
from baccarat.store.history import history_page
from baccarat.store.placement import place_batch
from baccarat.store.records import shoe_record
from baccarat.store.rounds import get_round, record_reveal, store_cards
from baccarat.store.settlement import settle_round
from baccarat.table import BetOrder, BetReceipt, Phase, reveal_order
from baccarat.table.reveal import reveal_bits, squeeze_order

STANDARD = load_ruleset("standard")


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = migrated(db_url)
    yield db
    db.dispose()


@pytest.mark.parametrize("face_down", [False, True])
def test_stored_views_show_only_the_recorded_reveals(database: Database, face_down: bool) -> None:
    shoe = setup_table(database, STANDARD)
    (alice,) = players(database, 1, 100_000)
    r = new_round(database, shoe, 1)
    with database.write() as c:
        order = BetOrder(alice, "standard", r.id, "place", {"player": 1_000}, "k", "h")
        (receipt,) = place_batch(c, [order])
    assert isinstance(receipt, BetReceipt)
    force_close(database, r.id)
    # The seed is sealed in the database; the test knows it.
    in_play = dataclasses.replace(shoe_now(database, shoe.id), server_seed=SEED)
    coup = in_play.fair().shoe(STANDARD.shoe).deal_coup()
    with database.write() as c:
        row = store_cards(c, r.id, coup.cards, db_now(c)).row
    turned = squeeze_order(coup) if face_down else reveal_order(coup)

    for count in range(len(turned) + 1):
        with database.write() as c:
            record_reveal(c, r.id, reveal_bits(turned[:count]))
            # A smaller set (a reveal resumed in another order) never hides a card again.
            record_reveal(c, r.id, reveal_bits(turned[: count // 2]))
        shown = Counter(card.card.code for card in turned[:count])
        with database.read() as c:
            stored = get_round(c, r.id)
            _, (recall,) = history_page(c, alice, 1, 10)
            record = shoe_record(c, in_play)
        assert stored is not None
        assert sorted(stored.face().cards, key=lambda x: x.index) == sorted(
            turned[:count], key=lambda x: x.index
        )
        assert Counter(recall.cards or []) == shown
        assert (recall.cards is None) == (count == 0)
        complete = count == len(turned)
        assert (recall.result is not None) == complete
        assert (stored.face().coup is not None) == complete
        assert record["coups"] == []  # the shoe in play: not a coup before it is settled

    with database.write() as c:
        settle_round(c, row, coup, STANDARD, db_now(c))
        record_reveal(c, r.id, 0)  # after the settlement: nothing to change
    with database.read() as c:
        settled = get_round(c, r.id)
        _, (recall,) = history_page(c, alice, 1, 10)
        record = shoe_record(c, in_play)
    assert settled is not None and settled.phase is Phase.SETTLED
    assert recall.cards == [card.code for card in coup.cards]
    assert recall.result is not None and recall.result["winner"] == coup.winner
    assert [entry["cards"] for entry in record["coups"]] == [recall.cards]


def test_a_settled_round_shows_everything_whatever_its_reveal_bits(database: Database) -> None:
    """Rounds settled before reveals were recorded have no bits: they show all of the coup."""
    shoe = setup_table(database, STANDARD)
    r = new_round(database, shoe, 1)
    force_close(database, r.id)
    in_play = dataclasses.replace(shoe_now(database, shoe.id), server_seed=SEED)
    coup = in_play.fair().shoe(STANDARD.shoe).deal_coup()
    with database.write() as c:
        row = store_cards(c, r.id, coup.cards, db_now(c)).row
        settle_round(c, row, coup, STANDARD, db_now(c))
    with database.read() as c:
        settled = get_round(c, r.id)
    assert settled is not None and settled.revealed == 0
    face = settled.face()
    assert face.coup is not None and face.coup.cards == coup.cards

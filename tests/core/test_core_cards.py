"""Card codes: every rank and suit, both spellings of ten, case, and errors that name the token."""

from __future__ import annotations

import pytest

from baccarat.cards import (
    RANKS,
    SUITS,
    Card,
    CardCodeError,
    Rank,
    Suit,
    full_deck,
    parse_cards,
    parse_rank,
)

SYMBOLS = "A23456789TJQK"
POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


@pytest.mark.parametrize(("symbol", "point"), list(zip(SYMBOLS, POINTS, strict=True)))
@pytest.mark.parametrize("suit", "cdhs")
def test_every_code_parses_and_formats_back(symbol: str, point: int, suit: str) -> None:
    card = Card.parse(symbol + suit)
    assert card.code == symbol + suit
    assert card.point == point
    assert Card.parse((symbol + suit).lower()) == card
    assert Card.parse((symbol + suit).upper()) == card


@pytest.mark.parametrize("code", ["10h", "10H", "Th", "th", "TH", " 10h "])
def test_ten_has_two_spellings_and_one_canonical_form(code: str) -> None:
    assert Card.parse(code) == Card(Rank.TEN, Suit.HEARTS)
    assert str(Card.parse(code)) == "Th"


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("Xs", "rank 'X'"),
        ("A", "a rank then a suit"),
        ("", "a rank then a suit"),
        ("Ax", "suit 'x'"),
        ("11h", "rank '11'"),
        ("1h", "rank '1'"),
        ("As s", "rank 'As '"),
    ],
)
def test_bad_codes_raise_a_value_error_naming_the_token(code: str, fragment: str) -> None:
    with pytest.raises(CardCodeError) as caught:
        Card.parse(code)
    assert isinstance(caught.value, ValueError)
    assert caught.value.token == code
    assert repr(code) in str(caught.value)
    assert fragment in str(caught.value)


def test_parse_cards_accepts_spaces_and_commas_and_names_the_bad_one() -> None:
    assert [c.code for c in parse_cards("As, 10d  kc")] == ["As", "Td", "Kc"]
    with pytest.raises(CardCodeError, match="'Zz'"):
        parse_cards("As Zz 3c")


def test_parse_rank() -> None:
    assert [parse_rank(s) for s in SYMBOLS] == list(RANKS)
    assert parse_rank("10") is Rank.TEN
    with pytest.raises(CardCodeError):
        parse_rank("0")


def test_shoe_v1_numbering() -> None:
    deck = full_deck()
    assert len(set(deck)) == 52
    for number, card in enumerate(deck):
        assert card.rank.index == number % 13
        assert card.suit.index == number // 13
    assert Card.from_index(52 + 13) == Card.from_index(13) == Card(Rank.ACE, Suit.DIAMONDS)
    assert [s.value for s in SUITS] == ["c", "d", "h", "s"]
    with pytest.raises(ValueError, match="non-negative"):
        Card.from_index(-1)

"""Option readers shared by several commands: rule sets, deck counts, card lists."""

from __future__ import annotations

import dataclasses
import random

from baccarat.cards import Card, CardCodeError, parse_cards
from baccarat.cli.app import fail
from baccarat.rulesets import RuleSet, RuleSetError, load_ruleset
from baccarat.shoe import Shoe, ShoeError, ShoeProcedure, check_decks

__all__ = ["open_ruleset", "read_cards", "shoe_procedure", "shuffled_shoe"]


def open_ruleset(name_or_file: str) -> RuleSet:
    """The rule set named or stored in ``name_or_file``, or a one-line error."""
    try:
        return load_ruleset(name_or_file)
    except RuleSetError as error:
        fail(str(error))


def shoe_procedure(ruleset: RuleSet, decks: int | None) -> ShoeProcedure:
    """The rule set's shoe procedure, with the deck count overridden when given."""
    if decks is None:
        return ruleset.shoe
    try:
        return dataclasses.replace(ruleset.shoe, decks=check_decks(decks))
    except ShoeError as error:
        fail(str(error))


def shuffled_shoe(procedure: ShoeProcedure, seed: int | None) -> Shoe:
    """A shoe shuffled by the OS CSPRNG, or reproducibly from ``seed``."""
    rng = random.Random(seed) if seed is not None else None
    return Shoe.shuffled(rng=rng, procedure=procedure)


def read_cards(text: str) -> list[Card]:
    """Card codes from the command line, or a one-line error naming the bad one."""
    try:
        return parse_cards(text)
    except CardCodeError as error:
        fail(str(error))

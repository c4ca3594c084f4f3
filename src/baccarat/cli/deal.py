"""``baccarat deal``: deal coups from a fresh shoe, or one coup from given cards."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from baccarat.cli.app import app, console, fail
from baccarat.cli.common import open_ruleset, read_cards, shoe_procedure, shuffled_shoe
from baccarat.coup import Coup, DealError, deal


@app.command("deal")
def deal_command(
    rules: Annotated[str, typer.Option(help="Rule set name or TOML file.")] = "standard",
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe (1-8).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible shuffle.")] = None,
    coups: Annotated[int | None, typer.Option(help="Stop after N coups.", min=1)] = None,
    cards: Annotated[
        str | None,
        typer.Option(help='Deal one coup from these cards, in deal order: "4h 3c 2d 2s 7h".'),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per coup, per line.")
    ] = False,
) -> None:
    """Deal a shoe (or N coups of it), or one coup from the cards given."""
    ruleset = open_ruleset(rules)
    if cards is not None:
        try:
            dealt = [deal(read_cards(cards))]
        except DealError as error:
            fail(str(error))
    else:
        shoe = shuffled_shoe(shoe_procedure(ruleset, decks), seed)
        dealt = []
        for coup in shoe.coups():
            dealt.append(coup)
            if coups is not None and len(dealt) >= coups:
                break
    if as_json:
        for coup in dealt:
            typer.echo(json.dumps(coup.to_json()))
        return
    console.print(coup_table(dealt, title=f"{ruleset.title}: {len(dealt)} coups"))


def coup_table(coups: list[Coup], title: str) -> Table:
    """A Rich table of coups, one row each."""
    table = Table(title=title, title_justify="left")
    for header in ("#", "Player", "", "Banker", "", "Winner", "Notes"):
        table.add_column(header)
    colours = {"player": "blue", "banker": "red", "tie": "green"}
    for number, coup in enumerate(coups, 1):
        notes = [
            name
            for name, flag in (
                ("natural", coup.natural),
                ("player pair", coup.player_pair),
                ("banker pair", coup.banker_pair),
            )
            if flag
        ]
        colour = colours[coup.winner.value]
        table.add_row(
            str(number),
            " ".join(c.pretty for c in coup.player.cards),
            str(coup.player_total),
            " ".join(c.pretty for c in coup.banker.cards),
            str(coup.banker_total),
            f"[{colour}]{coup.winner.value}[/]",
            ", ".join(notes),
        )
    return table

"""``baccarat deal``: deal coups from a fresh shoe, one coup from given cards, or a fair shoe.

A fair shoe (``--server-seed``/``--client-seed``/``--shoe-id``, ``docs/fairness.md``) is
dealt whole and, with ``--record FILE``, written as a shoe record that ``baccarat verify``
checks. Without ``--server-seed`` a fresh seed is drawn: its commitment is printed first
and the seed is revealed in the record (and on screen) once the shoe is dealt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from baccarat.cli.app import app, console, fail
from baccarat.cli.common import open_ruleset, read_cards, shoe_procedure, shuffled_shoe
from baccarat.coup import Coup, DealError, deal
from baccarat.fair import ALGORITHM, FairError, FairShoe, new_server_seed, parse_server_seed
from baccarat.record import build_record
from baccarat.rulesets import RuleSet


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
    server_seed: Annotated[
        str | None,
        typer.Option(help="Fair shoe: the server seed, 64 hex digits (default: a fresh one)."),
    ] = None,
    client_seed: Annotated[str | None, typer.Option(help="Fair shoe: the client seed.")] = None,
    shoe_id: Annotated[str | None, typer.Option(help="Fair shoe: the shoe id.")] = None,
    record: Annotated[
        Path | None,
        typer.Option(help="Fair shoe: deal it whole and write its shoe record (JSON) here."),
    ] = None,
) -> None:
    """Deal a shoe (or N coups of it), one coup from the cards given, or a provably fair shoe."""
    ruleset = open_ruleset(rules)
    if any(option is not None for option in (server_seed, client_seed, shoe_id, record)):
        _deal_fair(
            ruleset, decks, coups, cards, seed, as_json, server_seed, client_seed, shoe_id, record
        )
        return
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
    _show(dealt, ruleset, as_json)


def _show(dealt: list[Coup], ruleset: RuleSet, as_json: bool) -> None:
    if as_json:
        for coup in dealt:
            typer.echo(json.dumps(coup.to_json()))
        return
    console.print(coup_table(dealt, title=f"{ruleset.title}: {len(dealt)} coups"))


def _deal_fair(
    ruleset: RuleSet,
    decks: int | None,
    coups: int | None,
    cards: str | None,
    seed: int | None,
    as_json: bool,
    server_seed: str | None,
    client_seed: str | None,
    shoe_id: str | None,
    record: Path | None,
) -> None:
    if cards is not None or seed is not None:
        fail(
            "--cards and --seed do not go with a fair shoe (--server-seed, --client-seed, "
            "--shoe-id, --record)"
        )
    if client_seed is None or shoe_id is None:
        fail("a fair shoe needs --client-seed and --shoe-id")
    if record is not None and coups is not None:
        fail("--record writes the whole shoe; leave out --coups")
    try:
        secret = new_server_seed() if server_seed is None else parse_server_seed(server_seed)
    except FairError as error:
        fail(f"--server-seed: {error}")
    procedure = shoe_procedure(ruleset, decks)
    fair = FairShoe(secret, client_seed, shoe_id, procedure.decks)
    dealt = []
    for coup in fair.shoe(procedure).coups():
        dealt.append(coup)
        if coups is not None and len(dealt) >= coups:
            break
    if record is not None:
        # Written before anything is printed, so a bad path fails with one line and no output.
        text = json.dumps(build_record(fair, ruleset, dealt, procedure=procedure), indent=2)
        try:
            record.write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            fail(f"cannot write the record to {record}: {error.strerror or error}")
    # The commitment comes first; with --json, stdout carries only coups.
    notes = Console(stderr=True, highlight=False) if as_json else console
    plural = "s" if fair.decks > 1 else ""
    notes.print(
        f"{ALGORITHM} shoe {shoe_id!r}, {fair.decks} deck{plural}, commitment {fair.commitment}",
        markup=False,
        soft_wrap=True,
    )
    _show(dealt, ruleset, as_json)
    if server_seed is None:
        notes.print(f"server seed (revealed): {secret.hex()}", markup=False, soft_wrap=True)
    if record is not None:
        notes.print(
            f"record written to {record}; check it with: baccarat verify {record}",
            markup=False,
            soft_wrap=True,
        )


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

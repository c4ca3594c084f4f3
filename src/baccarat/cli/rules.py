"""``baccarat rules``: the drawing table and every pay table of a rule set."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import typer
from rich.table import Table

from baccarat.cli.app import app, console
from baccarat.cli.common import open_ruleset
from baccarat.responsible.money import format_money
from baccarat.rulesets import DEFAULT_CURRENCY, BetRule
from baccarat.rulespage import odds_text, rounding_text
from baccarat.tableau import BANKER_DRAWS_ON


@app.command("rules")
def rules_command(
    ruleset: Annotated[str, typer.Argument(help="Rule set name or TOML file.")] = "standard",
) -> None:
    """Print the drawing rules and the pay table of every bet a rule set offers."""
    rules = open_ruleset(ruleset)
    console.print(f"[bold]{rules.title}[/] ({rules.name})")
    if rules.description:
        console.print(rules.description)
    shoe = rules.shoe
    console.print(
        f"{shoe.decks} decks; burn {'on' if shoe.burn else 'off'}; cut card "
        f"{shoe.cut_card_from_end} cards from the end; last coup: {shoe.last_coup.value}.\n"
    )
    console.print(drawing_table())
    console.print(pay_tables(rules.bets.values(), rules.currency))
    console.print(
        f"Chips: {', '.join(format_money(chip, rules.currency) for chip in rules.chips)}."
    )
    console.print(rounding_text(rules.currency))


def drawing_table() -> Table:
    """The tableau as a table: what Banker does, by its total and Player's third card."""
    table = Table(title="Third-card rules (a two-card 8 or 9 is a natural: nobody draws)")
    table.add_column("Banker total")
    table.add_column("Player stood")
    for value in range(10):
        table.add_column(str(value), justify="center")
    table.add_row("Player", "draws on 0-5, stands on 6-7", *[""] * 10)
    for total in range(8):
        stood = "draws" if total <= 5 else "stands"
        marks = ["D" if v in BANKER_DRAWS_ON[total] else "S" for v in range(10)]
        table.add_row(f"Banker {total}", stood, *marks)
    table.caption = "Columns 0-9: Player's third card value. D = Banker draws, S = Banker stands."
    return table


def pay_tables(bets: Iterable[BetRule], currency: str = DEFAULT_CURRENCY) -> Table:
    """Every offered bet with its events, payouts and limits (in ``currency``)."""
    table = Table(title=f"Bets and payouts (stakes in {currency})")
    for header in ("Bet", "Pays", "Min", "Max", "What it is"):
        table.add_column(header)
    for rule in bets:
        # The odds as the table's spots and rules page print them ("0.95:1", not "19:20").
        pays = ", ".join(f"{event} {odds_text(payout)}" for event, payout in rule.pays.items())
        table.add_row(
            rule.type.label,
            pays,
            format_money(rule.min_stake, currency),
            format_money(rule.max_stake, currency),
            rule.type.description,
        )
    return table

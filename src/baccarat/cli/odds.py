"""``baccarat odds``: exact odds of every bet for a shoe, effects of removal, an EV trace.

The analysis modules are imported inside the command, so other commands never pay for
them, and ``--exact`` never loads numba.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccarat.cards import RANKS, Card, CardCodeError, Rank, parse_rank
from baccarat.cli.app import app, console, fail
from baccarat.cli.common import open_ruleset, shoe_procedure, shuffled_shoe
from baccarat.shoe import Composition, ShoeError

if TYPE_CHECKING:
    from rich.table import Table

    from baccarat.analysis.eor import EffectsOfRemoval
    from baccarat.analysis.exact import Odds
    from baccarat.analysis.exact.counts import ShoeCounts
    from baccarat.analysis.trace import Trace
    from baccarat.rulesets import RuleSet

__all__ = ["eor_json", "eor_tables", "odds_command", "odds_json", "odds_table", "trace_tables"]

Number = Fraction | float


@app.command("odds")
def odds_command(
    rules: Annotated[str, typer.Option(help="Rule set name or TOML file.")] = "standard",
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe (1-8).")] = None,
    remove: Annotated[
        str | None,
        typer.Option(help='Cards gone from the shoe, with or without suit: "5 5 Kd 9s".'),
    ] = None,
    counts: Annotated[
        str | None,
        typer.Option(
            help="Cards left: 10 counts by value (tens first, then 1-9) or 13 by rank (A-K), "
            "comma-separated."
        ),
    ] = None,
    eor: Annotated[
        bool, typer.Option("--eor", help="Effects of removing one card of each rank.")
    ] = False,
    trace: Annotated[
        bool, typer.Option("--trace", help="Deal a shoe and show each bet's EV before each coup.")
    ] = False,
    seed: Annotated[int | None, typer.Option(help="Seed of the shoe dealt by --trace.")] = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="Exact fractions (no compiled code; slower).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Exact odds, EV and house edge of every bet a rule set offers, for any shoe."""
    ruleset = open_ruleset(rules)
    if decks is not None and counts is not None:
        fail("give --decks or --counts, not both")
    if seed is not None and not trace:
        fail("--seed sets the shoe of --trace; add --trace")
    if trace:
        if counts is not None or remove is not None or eor:
            fail("--trace deals a fresh shoe; it takes no --counts, --remove or --eor")
        _trace(ruleset, decks, seed, exact=exact, as_json=as_json)
        return
    procedure = shoe_procedure(ruleset, decks)
    if as_json and counts is None and remove is None:
        # A full shoe's answer never changes for a rule set: it is kept on disk under the rule
        # set's content and the engine's code, so asking again imports no arrays at all.
        key = _full_shoe_key(ruleset, procedure.decks, exact=exact, eor=eor)
        if key is not None:
            from baccarat.analysis.cache import cached_json

            data = cached_json(
                "odds-full-shoe",
                key,
                lambda: _odds_data(ruleset, procedure.decks, None, None, exact=exact, eor=eor),
            )
            typer.echo(json.dumps(data))
            return
    shoe = _shoe(procedure.decks, counts, remove)
    from baccarat.analysis.exact.counts import known

    try:
        detail = known(shoe).detail
    except ShoeError as error:
        fail(str(error))
    if exact:
        from baccarat.analysis.exact import exact_odds

        odds: Odds[Fraction] | Odds[float] = exact_odds(shoe, ruleset)
    else:
        from baccarat.analysis.exact.float_path import fast_odds

        odds = fast_odds(shoe, ruleset)
    effects = None
    if eor:
        from baccarat.analysis.eor import effects_of_removal

        effects = effects_of_removal(shoe, ruleset)
    shoe_decks = None if counts is not None else procedure.decks
    if as_json:
        typer.echo(
            json.dumps(_with_eor(odds_json(odds, shoe_decks, detail, exact=exact), effects, exact))
        )
        return
    console.print(odds_table(odds, ruleset, detail))
    for name, reason in odds.omitted.items():
        console.print(f"{ruleset.bet(name).type.label}: not priced ({reason}).")
    if effects is not None:
        for table in eor_tables(effects, ruleset, console.width):
            console.print(table)


def _with_eor(
    data: dict[str, Any], effects: EffectsOfRemoval | None, exact: bool
) -> dict[str, Any]:
    if effects is not None:
        data["eor"] = eor_json(effects, exact=exact)
    return data


def _full_shoe_key(ruleset: RuleSet, decks: int, *, exact: bool, eor: bool) -> object | None:
    from baccarat.analysis.cache import function_key, package_stamp

    try:
        text = ruleset.to_toml()
    except Exception:  # a rule set that cannot be written out is just not cached
        return None
    classifiers = [function_key(rule.type.classify) for rule in ruleset.bets.values()]
    return [text, decks, exact, eor, classifiers, package_stamp()]


def _odds_data(
    ruleset: RuleSet, decks: int, counts: str | None, remove: str | None, *, exact: bool, eor: bool
) -> dict[str, Any]:
    """The JSON object of ``baccarat odds --json`` (the shoe checked first, one-line errors)."""
    from baccarat.analysis.exact.counts import known

    shoe = _shoe(decks, counts, remove)
    try:
        detail = known(shoe).detail
    except ShoeError as error:
        fail(str(error))
    odds: Odds[Fraction] | Odds[float]
    if exact:
        from baccarat.analysis.exact import exact_odds

        odds = exact_odds(shoe, ruleset)
    else:
        from baccarat.analysis.exact.float_path import fast_odds

        odds = fast_odds(shoe, ruleset)
    effects = None
    if eor:
        from baccarat.analysis.eor import effects_of_removal

        effects = effects_of_removal(shoe, ruleset)
    data = odds_json(odds, None if counts is not None else decks, detail, exact=exact)
    return _with_eor(data, effects, exact)


def _shoe(decks: int, counts: str | None, remove: str | None) -> ShoeCounts:
    """The shoe described by the options, or a one-line error."""
    from baccarat.analysis.exact.counts import CardCounts

    shoe: ShoeCounts
    try:
        shoe = CardCounts.full(decks) if counts is None else _counts(counts)
        if remove is None:
            return shoe
        gone = _removed(remove)
        if isinstance(shoe, CardCounts):
            cards = [item for item in gone if isinstance(item, Card)]
            if len(cards) == len(gone):
                return shoe.without(cards)
            shoe = shoe.by_rank()  # a card removed without its suit: suits are no longer known
        return shoe.without(gone)
    except ShoeError as error:
        fail(str(error))


def _counts(text: str) -> ShoeCounts:
    from baccarat.analysis.exact.counts import ValueCounts

    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    try:
        numbers = tuple(int(part) for part in parts)
    except ValueError:
        fail(f"--counts takes whole numbers separated by commas, not {text!r}")
    if len(numbers) == 10:
        return ValueCounts(numbers)
    if len(numbers) != 13:
        fail(f"--counts takes 10 counts by value or 13 by rank, not {len(numbers)}")
    return Composition(numbers)


def _removed(text: str) -> list[Card | Rank]:
    """Card codes (``Kd``) and bare ranks (``5``, ``T``, ``10``) to take out."""
    gone: list[Card | Rank] = []
    for token in text.replace(",", " ").split():
        try:
            gone.append(parse_rank(token))
        except CardCodeError:
            try:
                gone.append(Card.parse(token))
            except CardCodeError as error:
                fail(str(error))
    return gone


def _number(value: Number) -> float:
    return float(value)


def _exact(value: Number) -> str:
    return str(value)


def odds_json(
    odds: Odds[Fraction] | Odds[float], decks: int | None, detail: str, *, exact: bool
) -> dict[str, Any]:
    """The JSON object of ``baccarat odds --json``."""
    probabilities: dict[str, Any] = {
        "banker": _number(odds.banker),
        "player": _number(odds.player),
        "tie": _number(odds.tie),
    }
    if exact:
        probabilities |= {
            "banker_exact": _exact(odds.banker),
            "player_exact": _exact(odds.player),
            "tie_exact": _exact(odds.tie),
        }
    bets: dict[str, Any] = {}
    for name, bet in odds.bets.items():
        entry: dict[str, Any] = {
            "ev": _number(bet.ev),
            "house_edge": _number(bet.house_edge_percent),
            "probabilities": {e: _number(p) for e, p in bet.event_probabilities.items()},
            "results": {r: _number(p) for r, p in bet.result_probabilities.items()},
        }
        if exact:
            entry |= {
                "ev_exact": _exact(bet.ev),
                "house_edge_exact": _exact(bet.house_edge_percent),
                "probabilities_exact": {e: _exact(p) for e, p in bet.event_probabilities.items()},
                "results_exact": {r: _exact(p) for r, p in bet.result_probabilities.items()},
            }
        bets[name] = entry
    return {
        "rules": odds.rules,
        "decks": decks,
        "cards_left": odds.cards_left,
        "counts": detail,
        "probabilities": probabilities,
        "bets": bets,
        "omitted": dict(odds.omitted),
    }


def eor_json(effects: EffectsOfRemoval, *, exact: bool) -> dict[str, Any]:
    """Effects of removal in percent, by bet and rank symbol (null: no card of that rank)."""
    out: dict[str, Any] = {}
    for name, row in effects.by_bet.items():
        out[name] = {
            r.symbol: None if e is None else float(e) for r, e in zip(RANKS, row, strict=True)
        }
        if exact:
            out[name + "_exact"] = {
                r.symbol: None if e is None else str(e) for r, e in zip(RANKS, row, strict=True)
            }
    return out


def odds_table(odds: Odds[Fraction] | Odds[float], ruleset: RuleSet, detail: str) -> Table:
    """Every priced bet with its chances, EV and house edge."""
    from rich.table import Table

    title = (
        f"{ruleset.title}: {odds.cards_left} cards (counts by {detail.rstrip('s')}). "
        f"Banker {float(odds.banker):.6f}  Player {float(odds.player):.6f}  "
        f"Tie {float(odds.tie):.6f}"
    )
    table = Table(title=title, title_justify="left")
    for header in ("Bet", "P(win)", "P(push)", "P(lose)", "EV per unit", "House edge"):
        table.add_column(header, justify="left" if header == "Bet" else "right")
    for name, bet in odds.bets.items():
        results = bet.result_probabilities
        win = float(results["win"]) + float(results["half"])
        ev = float(bet.ev)
        colour = "green" if ev > 0 else "default"
        table.add_row(
            ruleset.bet(name).type.label,
            f"{win:.6f}",
            f"{float(results['push']):.6f}",
            f"{float(results['lose']):.6f}",
            f"[{colour}]{ev:+.6f}[/]",
            f"{float(bet.house_edge_percent):.4f}%",
        )
    return table


def eor_tables(effects: EffectsOfRemoval, ruleset: RuleSet, width: int) -> list[Table]:
    """Effects of removal, EV change in percent per card taken out: a row per rank, a column
    per bet, as many tables as it takes to fit ``width`` columns of text."""
    from rich.table import Table

    tables = []
    for first, chunk in _chunks(list(effects.by_bet), width, fixed=8, per_column=12):
        table = Table(
            title=f"Effect of removing one card: EV change in % ({effects.cards_left} cards)"
            if first
            else None,
            title_justify="left",
        )
        table.add_column("Rank")
        for name in chunk:
            table.add_column(ruleset.bet(name).type.label, justify="right")
        for i, rank in enumerate(RANKS):
            cells = []
            for name in chunk:
                effect = effects.by_bet[name][i]
                cells.append("-" if effect is None else f"{float(effect):+.4f}")
            table.add_row(rank.symbol, *cells)
        tables.append(table)
    return tables


def _trace(
    ruleset: RuleSet, decks: int | None, seed: int | None, *, exact: bool, as_json: bool
) -> None:
    shoe = shuffled_shoe(shoe_procedure(ruleset, decks), seed)
    trace: Trace[Fraction] | Trace[float]
    if exact:
        from baccarat.analysis.trace import exact_ev_trace

        trace = exact_ev_trace(shoe, ruleset)
    else:
        from baccarat.analysis.trace import ev_trace

        trace = ev_trace(shoe, ruleset)
    positive = trace.positive()
    if as_json:
        coups = []
        for point in trace.points:
            entry: dict[str, Any] = {
                "coup": point.coup,
                "cards_left": point.cards_left,
                "ev": {bet: float(ev) for bet, ev in point.evs.items()},
                "positive": [bet for bet, ev in point.evs.items() if ev > trace.tolerance],
            }
            if exact:
                entry["ev_exact"] = {bet: str(ev) for bet, ev in point.evs.items()}
            coups.append(entry)
        data = {
            "rules": trace.rules,
            "decks": shoe_procedure(ruleset, decks).decks,
            "seed": seed,
            "burned": len(shoe.burned),
            "bets": list(trace.bets),
            "coups": coups,
            "positive": positive,
            "turns_positive": trace.turns_positive(),
            "omitted": dict(trace.omitted),
        }
        typer.echo(json.dumps(data))
        return
    for table in trace_tables(trace, ruleset, console.width):
        console.print(table)
    marked = {bet: coups for bet, coups in positive.items() if coups}
    if not marked:
        console.print("No bet turned positive in this shoe.")
    turns = trace.turns_positive()
    for bet, numbers in marked.items():
        console.print(
            f"{ruleset.bet(bet).type.label}: positive before coup(s) {_listed(numbers)}; "
            f"turns positive at {_listed(turns[bet])}."
        )


def _listed(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


def trace_tables(
    trace: Trace[Fraction] | Trace[float], ruleset: RuleSet, width: int
) -> list[Table]:
    """EV in percent of each bet before each coup, positive ones in green with ``*``: as many
    tables (each a share of the bets) as it takes to fit ``width`` columns of text."""
    from rich.table import Table

    tables = []
    for first, chunk in _chunks(list(trace.bets), width, fixed=16, per_column=11):
        table = Table(
            title=f"{ruleset.title}: EV before each coup, % of the stake (* positive)"
            if first
            else None,
            title_justify="left",
        )
        table.add_column("Coup", justify="right")
        table.add_column("Cards", justify="right")
        for bet in chunk:
            table.add_column(ruleset.bet(bet).type.label, justify="right")
        for point in trace.points:
            cells = []
            for bet in chunk:
                ev = point.evs[bet]
                text = f"{100 * float(ev):+.3f}"
                cells.append(f"[bold green]{text}*[/]" if ev > trace.tolerance else f"{text} ")
            table.add_row(str(point.coup), str(point.cards_left), *cells)
        tables.append(table)
    return tables


def _chunks(
    names: list[str], width: int, *, fixed: int, per_column: int
) -> list[tuple[bool, list[str]]]:
    """``names`` cut into runs that fit ``width`` (first run flagged), for tables of columns."""
    size = max(1, (width - fixed) // per_column)
    return [(i == 0, names[i : i + size]) for i in range(0, len(names), size)]

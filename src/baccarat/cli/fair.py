"""``baccarat shoe`` (derive a fair shoe's order) and ``baccarat verify`` (check a shoe record)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from baccarat.cli.app import app, console, fail
from baccarat.fair import ALGORITHM, FairError, FairShoe, parse_server_seed
from baccarat.record import RecordError
from baccarat.shoe import ShoeError
from baccarat.verify import verify_record

__all__ = ["fair_shoe", "read_record"]

#: Exit code of ``verify`` when the record does not hold.
RECORD_FAILS = 1


def fair_shoe(server_seed: str, client_seed: str, shoe_id: str, decks: int) -> FairShoe:
    """The fair shoe of the command-line inputs, or a one-line error (exit 2)."""
    try:
        return FairShoe(parse_server_seed(server_seed), client_seed, shoe_id, decks)
    except (FairError, ShoeError) as error:
        fail(f"--server-seed: {error}" if isinstance(error, FairError) else str(error))


@app.command("shoe")
def shoe_command(
    server_seed: Annotated[str, typer.Option(help="The server seed, 64 hex digits.")],
    client_seed: Annotated[str, typer.Option(help="The client seed (any text).")],
    shoe_id: Annotated[str, typer.Option(help="The shoe id.")],
    decks: Annotated[int, typer.Option(help="Decks in the shoe (1-8).")] = 8,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print commitment, digest and order as JSON.")
    ] = False,
) -> None:
    """Derive a provably fair shoe (baccarat-shoe-v1): its commitment, digest and card order."""
    fair = fair_shoe(server_seed, client_seed, shoe_id, decks)
    if as_json:
        order = [card.code for card in fair.cards]
        typer.echo(
            json.dumps({"commitment": fair.commitment, "digest": fair.digest, "order": order})
        )
        return
    console.print(
        f"{ALGORITHM}: shoe {fair.shoe_id!r}, {fair.decks} deck{'s' * (fair.decks > 1)}",
        markup=False,
        soft_wrap=True,
    )
    console.print(f"commitment  {fair.commitment}")
    console.print(f"digest      {fair.digest}")
    console.print("order (position 1 is dealt first and turned for the burn):")
    for start in range(0, len(fair.cards), 13):
        row = " ".join(f"{card.pretty:>3}" for card in fair.cards[start : start + 13])
        console.print(f"{start + 1:>5}  {row}", markup=False, soft_wrap=True)


def read_record(source: str) -> Any:
    """The JSON in file ``source`` (``-`` for stdin), or a one-line error (exit 2)."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror or error}")
    except UnicodeDecodeError:
        fail(f"{source} is not UTF-8 text")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        fail(f"{source} is not JSON: {error}")


#: The failures ``verify`` lists in words (``--json`` gives them all).
FAILURES_SHOWN = 20


@app.command("verify")
def verify_command(
    record: Annotated[str, typer.Argument(help="A shoe record (JSON); - reads stdin.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object.")
    ] = False,
) -> None:
    """Check a shoe record: commitment, order and digest, every coup, every settlement.

    Exit 0 when everything holds, 1 when something does not, 2 when the file cannot be read.
    """
    data = read_record(record)
    try:
        report = verify_record(data)
    except RecordError as error:
        fail(f"{record}: {error}")
    if as_json:
        failures = [
            {"coup": f.coup, "card": f.card, "field": f.field, "path": f.path, "message": f.message}
            for f in report.failures
        ]
        typer.echo(json.dumps({"ok": report.ok, "coups": report.coups, "failures": failures}))
    else:
        what = f"shoe {data['shoe_id']!r}, {report.coups} coups, {report.wagers} wagers"
        if report.not_dealt:
            what += f" (ended early: the {report.not_dealt} coups left in its order were not dealt)"
        if report.ok:
            console.print(
                f"OK: {what}: commitment, order and digest, burn, cut card, every coup "
                "and every settlement hold.",
                markup=False,
                soft_wrap=True,
            )
        else:
            # The verdict first: a wrong seed fails every coup, and the first lines must say so.
            count = len(report.failures)
            console.print(
                f"NOT VERIFIED: {what}: {count} failure{'s' if count > 1 else ''}.",
                markup=False,
                soft_wrap=True,
            )
            for failure in report.failures[:FAILURES_SHOWN]:
                console.print(f"FAIL {failure}", markup=False, soft_wrap=True)
            if count > FAILURES_SHOWN:
                console.print(
                    f"... and {count - FAILURES_SHOWN} more (--json lists every one).",
                    markup=False,
                    soft_wrap=True,
                )
    if not report.ok:
        raise typer.Exit(RECORD_FAILS)

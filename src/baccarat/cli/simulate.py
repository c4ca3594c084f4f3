"""``baccarat simulate``: Monte Carlo over whole shoes, every bet settled, strategies played."""

from __future__ import annotations

import json
import os
import secrets
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from baccarat.analysis.simulate.strategy import Strategy, StrategyError
from baccarat.cli.app import app, console, fail
from baccarat.cli.common import open_ruleset
from baccarat.rulesets import RuleSet

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from baccarat.analysis.simulate.results import Simulation

#: Exit code of a run stopped by Ctrl-C (after printing what it had), as shells report SIGINT.
INTERRUPTED = 130
# A run shows a progress bar once it has taken this long (seconds).
_PROGRESS_AFTER = 1.0
_stderr = Console(stderr=True, highlight=False)


@app.command("simulate")
def simulate_command(
    rules: Annotated[str, typer.Option(help="Rule set name or TOML file.")] = "standard",
    shoes: Annotated[int, typer.Option(help="Shoes to deal.")] = 100_000,
    workers: Annotated[
        int | None, typer.Option(help="Threads to run on (default: one per CPU).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed (a non-negative integer); random if not given.")
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            help="A strategy to play, repeatable: flat:BET, count:BET (published count: "
            "dragon_7, panda_8), count:BET::THRESHOLD or count:BET:TAGS:THRESHOLD with 13 "
            "tags A..K or 10 tags A..9,tens. Default: flat:banker."
        ),
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Run on the Dask cluster at tcp://HOST:PORT.")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Draw bankroll paths and EV by true count to FILE.png.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Deal shoes at random and report each bet's EV beside the exact one, and each strategy."""
    # Imported here: the compiled kernel loads numba, which the other commands do without.
    from baccarat.analysis.simulate import SimulationError, simulate

    ruleset = open_ruleset(rules)
    if shoes < 1:
        fail(f"--shoes must be at least 1, not {shoes}")
    threads = (os.cpu_count() or 1) if workers is None else workers
    if threads < 1:
        fail(f"--workers must be at least 1, not {threads}")
    if seed is not None and seed < 0:
        fail(f"--seed must be a non-negative integer, not {seed}")
    plays = _strategies(ruleset, strategy or [])
    if plot is not None:
        _check_plot(plot)
    chosen_seed = secrets.randbits(63) if seed is None else seed
    try:
        with _ProgressBar() as bar, _first_ctrl_c() as stop:
            run = simulate(
                ruleset,
                shoes,
                seed=chosen_seed,
                strategies=plays,
                workers=threads,
                scheduler=scheduler,
                on_progress=bar.update,
                stop=stop,
            )
    except SimulationError as error:
        fail(str(error))
    if plot is not None and run.shoes:
        from baccarat.analysis.simulate.plot import plot_simulation

        plot_simulation(run, plot)
    if as_json:
        typer.echo(json.dumps(run.to_json()))
    else:
        _print(run)
    if run.interrupted:
        raise typer.Exit(INTERRUPTED)


def _strategies(ruleset: RuleSet, texts: list[str]) -> list[Strategy]:
    if not texts:
        return [Strategy("banker" if ruleset.offers("banker") else next(iter(ruleset.bets)))]
    plays = []
    for text in texts:
        try:
            play = Strategy.parse(text)
        except StrategyError as error:
            fail(f"--strategy: {error}")
        if not ruleset.offers(play.bet):
            fail(f"--strategy: rule set {ruleset.name!r} does not offer {play.bet!r}")
        plays.append(play)
    return plays


def _check_plot(path: Path) -> None:
    from baccarat.analysis.simulate.plot import plotting_available

    if path.suffix.lower() != ".png":
        fail(f"--plot writes a PNG file (FILE.png), not {str(path)!r}")
    if not path.parent.is_dir():
        fail(f"--plot: no directory {str(path.parent)!r}")
    if not plotting_available():
        fail("--plot needs matplotlib: pip install 'baccarat[plot]'")


@contextmanager
def _first_ctrl_c() -> Iterator[threading.Event]:
    """An event the first Ctrl-C sets (the run stops at its next step and reports what it
    has); a second Ctrl-C interrupts as usual."""
    stop = threading.Event()

    def first(signum: int, frame: FrameType | None) -> None:
        stop.set()
        signal.signal(signal.SIGINT, previous)

    previous = signal.signal(signal.SIGINT, first)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class _ProgressBar:
    """A Rich progress bar with ETA on stderr, shown once the run has taken a second."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        # Made when first shown: a short run never imports Rich's progress machinery.
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def update(self, done: int, total: int) -> None:
        if self.progress is None or self.task is None:
            if time.monotonic() - self.started < _PROGRESS_AFTER:
                return
            self.progress = _progress()
            self.progress.start()
            self.task = self.progress.add_task("simulate", total=total)
        self.progress.update(self.task, completed=done)

    def __enter__(self) -> _ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def _progress() -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("shoes"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=_stderr,
        transient=True,
    )


def _percent(value: float | None, digits: int = 4) -> str:
    return "—" if value is None else f"{100 * value:+.{digits}f}%"


def _print(run: Simulation) -> None:
    from rich.table import Table

    from baccarat.analysis.simulate.results import QUANTILES

    console.print(
        f"[bold]{run.ruleset.title}[/] ({run.ruleset.name}, {run.ruleset.decks} decks): "
        f"{run.shoes:,} shoes, {run.coups:,} coups, seed {run.seed}"
    )
    bets = Table(title="Each bet, one unit on every coup", title_justify="left")
    for header in ("Bet", "Observed EV", "99% CI", "Exact EV", "z"):
        bets.add_column(header, justify="left" if header == "Bet" else "right")
    for bet in run.bets:
        low, high = bet.ci99
        z = "—" if bet.z is None else f"{bet.z:+.2f}"
        bets.add_row(
            bet.bet,
            _percent(bet.ev),
            f"{_percent(low, 3)} … {_percent(high, 3)}",
            _percent(bet.exact),
            z,
        )
    console.print(bets)
    plays = Table(title="Strategies, one unit a bet", title_justify="left")
    for header in ("Strategy", "Bets", "Net (units)", "EV per bet", "99% CI", "Exact EV"):
        plays.add_column(header, justify="left" if header == "Strategy" else "right")
    shoes = Table(title="Net per shoe (units) at the quantiles", title_justify="left")
    shoes.add_column("Strategy")
    for q in QUANTILES:
        shoes.add_column(f"{q:.0%}", justify="right")
    for report in run.reports:
        estimate = report.estimate
        ci = "—"
        if estimate is not None:
            ci = f"{_percent(estimate.ci99[0], 3)} … {_percent(estimate.ci99[1], 3)}"
        plays.add_row(
            report.strategy.text,
            f"{report.bets_made:,}",
            f"{float(report.net):+,.2f}",
            _percent(None if estimate is None else estimate.ev),
            ci,
            _percent(report.exact),
        )
        quantiles = report.shoe_quantiles.values()
        shoes.add_row(report.strategy.text, *(f"{value:+g}" for value in quantiles))
    console.print(plays)
    console.print(shoes)
    if run.interrupted:
        console.print(
            f"[yellow]Interrupted:[/] these figures cover the complete batches only "
            f"({run.shoes:,} of {run.shoes_requested:,} shoes)."
        )

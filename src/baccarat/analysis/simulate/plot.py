"""Charts of a simulation (the ``baccarat[plot]`` extra): bankroll paths and EV by true count.

Uses matplotlib's object API with the Agg canvas: no display, no global pyplot state.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from baccarat.analysis.simulate.results import Simulation

__all__ = ["PATHS", "plot_simulation", "plotting_available"]

#: Bankroll paths drawn per strategy.
PATHS = 10
# A true-count bin with fewer coups than this is too noisy to draw.
_MIN_COUPS = 200


def plotting_available() -> bool:
    """Whether matplotlib is installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot_simulation(run: Simulation, path: Path) -> None:
    """Draw the bankroll paths of each strategy and its EV by true count into a PNG at ``path``.

    The first shoes of the run (up to ``PATH_SHOES``) are cut into :data:`PATHS` sessions of
    consecutive shoes; each path is a session's bankroll, one unit a bet, shoe after shoe.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 5), layout="constrained")
    FigureCanvasAgg(figure)
    paths, by_count = figure.subplots(1, 2)
    colours = [f"C{i}" for i in range(10)]
    for s, report in enumerate(run.reports):
        nets = run.tally.first_shoes[s] / run.scales[s]
        length = max(1, nets.size // PATHS)
        for p in range(min(PATHS, nets.size)):
            session = np.concatenate([[0.0], np.cumsum(nets[p * length : (p + 1) * length])])
            label = report.strategy.text if p == 0 else None
            paths.plot(session, color=colours[s % 10], alpha=0.6, linewidth=0.8, label=label)
    paths.axhline(0, color="black", linewidth=0.5)
    paths.set_title(f"Bankroll paths: {PATHS} sessions per strategy")
    paths.set_xlabel("shoes played")
    paths.set_ylabel("bankroll (units, one unit a bet)")
    if run.reports:
        paths.legend(loc="upper left", fontsize="small")

    counted = False
    for s, report in enumerate(run.reports):
        if report.strategy.count is None:
            continue
        points = [(tc, e) for tc, e in report.ev_by_true_count if e.trials >= _MIN_COUPS]
        if not points:
            continue
        counted = True
        colour = colours[s % 10]
        by_count.errorbar(
            [tc for tc, _ in points],
            [e.ev for _, e in points],
            yerr=[e.ci99[1] - e.ev for _, e in points],
            fmt="o",
            markersize=3,
            capsize=2,
            color=colour,
            label=f"{report.strategy.text} (99% CI)",
        )
        by_count.axvline(float(report.strategy.count.threshold), color=colour, linestyle=":")
    by_count.axhline(0, color="black", linewidth=0.5)
    by_count.set_title("EV per unit by true count (before the coup)")
    by_count.set_xlabel("true count (running count per deck left, rounded down)")
    by_count.set_ylabel("EV per unit")
    if counted:
        by_count.legend(loc="upper left", fontsize="small")
    else:
        by_count.text(0.5, 0.5, "no counting strategy", ha="center", transform=by_count.transAxes)
    figure.suptitle(
        f"{run.ruleset.title}: {run.shoes:,} shoes, {run.coups:,} coups, seed {run.seed}"
    )
    figure.savefig(path, dpi=100)

"""``baccarat simulate``: its JSON, its errors, its plot, and Ctrl-C in a real process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from baccarat.analysis.simulate import BATCH_SHOES
from baccarat.cli import app

runner = CliRunner()
EXE = Path(sys.executable).with_name("baccarat")
TOP_KEYS = {
    "rules",
    "decks",
    "seed",
    "shoes_requested",
    "shoes",
    "coups",
    "interrupted",
    "bets",
    "strategies",
}
BET_KEYS = {"bet", "coups", "ev", "stderr", "ci99", "exact_ev", "z", "events"}
STRATEGY_KEYS = {
    "strategy",
    "bet",
    "bets_made",
    "net",
    "ev",
    "stderr",
    "ci99",
    "exact_ev",
    "bankroll_quantiles",
    "ev_by_true_count",
}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> dict[str, Any]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_report() -> None:
    data = as_json(
        "--rules", "ez", "--shoes", "1500", "--seed", "8", "--strategy", "count:dragon_7"
    )
    assert set(data) == TOP_KEYS
    assert (data["rules"], data["decks"], data["seed"]) == ("ez", 8, 8)
    assert data["shoes"] == data["shoes_requested"] == 1500 and not data["interrupted"]
    assert [b["bet"] for b in data["bets"]] == [
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "either_pair",
        "perfect_pair",
        "dragon_bonus_player",
        "dragon_bonus_banker",
        "dragon_7",
        "panda_8",
    ]
    for bet in data["bets"]:
        assert set(bet) == BET_KEYS
        assert bet["coups"] == data["coups"] == sum(bet["events"].values())
        low, high = bet["ci99"]
        assert low < bet["ev"] < high
        assert bet["z"] == pytest.approx((bet["ev"] - bet["exact_ev"]) / bet["stderr"])
    (dragon,) = data["strategies"]
    assert set(dragon) == STRATEGY_KEYS
    assert dragon["strategy"] == "count:dragon_7"
    assert list(dragon["bankroll_quantiles"]) == [
        "0.01",
        "0.05",
        "0.25",
        "0.5",
        "0.75",
        "0.95",
        "0.99",
    ]
    quantiles = list(dragon["bankroll_quantiles"].values())
    assert quantiles == sorted(quantiles)
    seen = sum(row["coups"] for row in dragon["ev_by_true_count"])
    assert seen == data["coups"]  # every coup is tallied at its true count
    assert 0 < dragon["bets_made"] < data["coups"]


def test_same_seed_same_report_whatever_the_workers() -> None:
    one = as_json("--shoes", "2500", "--seed", "31", "--workers", "1")
    two = as_json("--shoes", "2500", "--seed", "31", "--workers", "2")
    assert one == two
    assert one["strategies"][0]["strategy"] == "flat:banker"  # the default strategy
    assert as_json("--shoes", "2500", "--seed", "32")["coups"] != one["coups"]


def test_a_seed_is_chosen_and_reported_when_none_is_given() -> None:
    data = as_json("--shoes", "10")
    again = as_json("--shoes", "10", "--seed", str(data["seed"]))
    assert again == data


def test_table_output() -> None:
    code, out, _ = run("--rules", "no-commission", "--shoes", "500", "--seed", "1")
    assert code == 0
    for text in ("No-commission baccarat", "500 shoes", "super_6", "Exact EV", "flat:banker"):
        assert text in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shoes", "0"], "--shoes must be at least 1, not 0"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--seed", "-3"], "--seed must be a non-negative integer"),
        (["--rules", "bogus"], "unknown rule set 'bogus'"),
        (["--strategy", "count:banker:1,2"], "--strategy: bad strategy"),
        (["--strategy", "martingale"], "--strategy: unknown bet 'martingale'"),
        (["--strategy", "count:banker"], "no published count for 'banker'"),
        (["--strategy", "dragon_7"], "rule set 'standard' does not offer 'dragon_7'"),
        (["--plot", "chart.svg"], "--plot writes a PNG file"),
        (["--plot", "/no/such/dir/chart.png"], "--plot: no directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    extra = [] if "--shoes" in args else ["--shoes", "10"]
    code, out, err = run(*args, *extra)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("baccarat: error: ")
    assert message in err


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "run.png"
    code, _, err = run(
        "--rules",
        "ez",
        "--shoes",
        "3000",
        "--seed",
        "2",
        "--strategy",
        "count:dragon_7",
        "--strategy",
        "flat:banker",
        "--plot",
        str(target),
        "--json",
    )
    assert code == 0, err
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_a_real_process_gives_the_same_json() -> None:
    args = ["simulate", "--shoes", "1200", "--seed", "77", "--json"]
    done = subprocess.run(
        [str(EXE), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == as_json("--shoes", "1200", "--seed", "77")


def test_ctrl_c_keeps_the_complete_batches() -> None:
    """SIGINT a long run once its progress bar shows: it prints what it did and exits 130."""
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}
    process = subprocess.Popen(
        [str(EXE), "simulate", "--shoes", "100000000", "--seed", "5", "--json", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stderr is not None
    os.set_blocking(process.stderr.fileno(), False)
    seen = b""
    deadline = time.monotonic() + 60
    while b"simulating" not in seen and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
        seen += process.stderr.read() or b""
    assert b"simulating" in seen and b"ETA" in seen, seen[-500:]
    process.send_signal(signal.SIGINT)
    try:
        out, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 130
    data = json.loads(out)
    assert data["interrupted"] is True
    assert 0 < data["shoes"] < data["shoes_requested"] == 100_000_000
    assert data["shoes"] % BATCH_SHOES == 0  # complete batches only
    assert data["bets"][0]["coups"] == data["coups"] > 0

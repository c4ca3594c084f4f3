"""``baccarat shoe``, ``baccarat deal`` with a fair shoe and ``baccarat verify``, end to end."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fair_support import SEED, played
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.fair import FairShoe, order_digest
from baccarat.rulesets import load_ruleset

runner = CliRunner()
VECTORS = json.loads((Path(__file__).parent / "vectors.json").read_text(encoding="utf-8"))
FAIR = ["--server-seed", SEED.hex(), "--client-seed", "cli-client", "--shoe-id", "cli-shoe"]
BACCARAT = Path(sys.executable).parent / "baccarat"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def assert_usage_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2 and out == ""
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err


def write(path: Path, record: Any) -> str:
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


# --- baccarat shoe ---------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS["shoes"], ids=[v["name"] for v in VECTORS["shoes"]])
def test_shoe_json_gives_the_vector(vector: dict[str, Any]) -> None:
    code, out, _ = run(
        "shoe",
        "--server-seed",
        vector["server_seed"],
        "--client-seed",
        vector["client_seed"],
        "--shoe-id",
        vector["shoe_id"],
        "--decks",
        str(vector["decks"]),
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"commitment", "digest", "order"}
    assert data["commitment"] == vector["commitment"] and data["digest"] == vector["digest"]
    assert data["order"][:20] == vector["first_20"] and len(data["order"]) == 52 * vector["decks"]
    assert all(len(code) == 2 for code in data["order"])  # ten is written T, never 10


def test_shoe_readable_view() -> None:
    code, out, _ = run("shoe", *FAIR, "--decks", "1")
    fair = FairShoe(SEED, "cli-client", "cli-shoe", 1)
    assert code == 0 and fair.commitment in out and fair.digest in out
    assert " ".join(f"{card.pretty:>3}" for card in fair.cards[:13]) in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--server-seed", "abc"], ["--server-seed", "64 hex digits"]),
        (["--server-seed", "g" * 64], ["--server-seed", "hexadecimal"]),
        (["--server-seed", SEED.hex() + "00"], ["66 characters"]),
    ],
)
def test_shoe_refuses_a_bad_seed(args: list[str], words: list[str]) -> None:
    assert_usage_error(*run("shoe", *args, "--client-seed", "c", "--shoe-id", "s"), *words)


def test_shoe_refuses_a_bad_deck_count() -> None:
    assert_usage_error(*run("shoe", *FAIR, "--decks", "9"), "1 to 8 decks")


# --- baccarat deal with a fair shoe --------------------------------------------------------


def test_deal_writes_a_record_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "shoe.json"
    code, out, _ = run("deal", *FAIR, "--rules", "ez", "--record", str(path))
    assert code == 0 and str(path) in out
    record = json.loads(path.read_text(encoding="utf-8"))
    fair = FairShoe(SEED, "cli-client", "cli-shoe", 8)
    assert record["server_seed"] == SEED.hex() and record["digest"] == fair.digest
    assert record["ruleset"] == {"name": "ez"}
    assert [c["cards"] for c in record["coups"]] == [
        [card.code for card in coup.cards] for coup in fair.shoe(load_ruleset("ez").shoe).coups()
    ]
    code, out, _ = run("verify", str(path))
    assert code == 0 and out.startswith("OK")


def test_deal_records_a_custom_rule_set_that_verifies(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text(
        'name = "house"\nextends = "standard"\n[bets.tie]\npays = { tie = "9:1" }\n'
        '[shoe]\ncut_card_from_end = 20\nlast_coup = "finish"\n',
        encoding="utf-8",
    )
    path = tmp_path / "house.json"
    code, _, _ = run("deal", *FAIR, "--rules", str(rules), "--decks", "4", "--record", str(path))
    assert code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["ruleset"]["name"] == "house" and 'tie = "9:1"' in record["ruleset"]["toml"]
    assert record["decks"] == 4 and record["procedure"]["last_coup"] == "finish"
    rules.unlink()  # the record alone is enough
    assert run("verify", str(path))[0] == 0


def test_deal_json_prints_the_fair_coups(tmp_path: Path) -> None:
    code, out, err = run("deal", *FAIR, "--decks", "2", "--json")
    fair = FairShoe(SEED, "cli-client", "cli-shoe", 2)
    procedure = dataclasses.replace(load_ruleset("standard").shoe, decks=2)
    expected = [coup.to_json() for coup in fair.shoe(procedure).coups()]
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == expected
    assert fair.commitment in err  # stdout carries only coups


def test_deal_with_a_fresh_seed_commits_first_and_reveals_last(tmp_path: Path) -> None:
    path = tmp_path / "fresh.json"
    code, out, _ = run(
        "deal", "--client-seed", "c", "--shoe-id", "s", "--decks", "1", "--record", str(path)
    )
    assert code == 0
    lines = out.splitlines()
    committed = lines[0].rsplit(" ", 1)[1]
    revealed = next(line for line in lines if line.startswith("server seed (revealed)"))
    seed = bytes.fromhex(revealed.rsplit(" ", 1)[1])
    assert hashlib.sha256(seed).hexdigest() == committed
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (record["commitment"], record["server_seed"]) == (committed, seed.hex())
    assert run("verify", str(path))[0] == 0
    # A second run draws another seed.
    other = tmp_path / "other.json"
    run("deal", "--client-seed", "c", "--shoe-id", "s", "--decks", "1", "--record", str(other))
    assert json.loads(other.read_text(encoding="utf-8"))["server_seed"] != seed.hex()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--server-seed", "xyz", "--client-seed", "c", "--shoe-id", "s"], ["64 hex digits"]),
        (["--server-seed", "0" * 63 + "z", "--client-seed", "c", "--shoe-id", "s"], ["hex"]),
        (["--server-seed", "00" * 16, "--client-seed", "c", "--shoe-id", "s"], ["32 bytes"]),
        (["--client-seed", "c"], ["--shoe-id"]),
        (["--shoe-id", "s"], ["--client-seed"]),
        ([*FAIR, "--seed", "3"], ["--seed"]),
        ([*FAIR, "--cards", "4h 3c 2d 2s"], ["--cards"]),
        ([*FAIR, "--decks", "0"], ["1 to 8 decks"]),
        ([*FAIR, "--rules", "bogus"], ["unknown rule set"]),
    ],
)
def test_deal_refuses_bad_fair_options(args: list[str], words: list[str]) -> None:
    assert_usage_error(*run("deal", *args), *words)


def test_deal_refuses_an_unwritable_record(tmp_path: Path) -> None:
    for target in (tmp_path / "missing-dir" / "x.json", tmp_path):
        assert_usage_error(*run("deal", *FAIR, "--record", str(target)), "cannot write")
    assert list(tmp_path.iterdir()) == []


def test_deal_refuses_a_partial_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    assert_usage_error(*run("deal", *FAIR, "--coups", "3", "--record", str(path)), "--coups")
    assert not path.exists()


def test_deal_without_fair_options_is_unchanged() -> None:
    code, out, _ = run("deal", "--seed", "5", "--json", "--coups", "2")
    assert code == 0 and len(out.splitlines()) == 2 and "commitment" not in out


# --- baccarat verify ---------------------------------------------------------------------


def test_verify_passes_a_record_with_wagers(tmp_path: Path) -> None:
    code, out, _ = run("verify", write(tmp_path / "r.json", played()[3]))
    assert code == 0 and "OK" in out and "wagers" in out


def _tampered(tmp_path: Path, change: str) -> tuple[int, str]:
    record = played()[3]
    if change == "card":
        cards = record["coups"][4]["cards"]
        cards[1] = "Kd" if cards[1] != "Kd" else "Qd"
    elif change == "server seed":
        record["server_seed"] = "ff" + record["server_seed"][2:]
    elif change == "client seed":
        record["client_seed"] = "someone-else"
    elif change == "payout":
        record["coups"][7]["wagers"][0]["returned"] += 50
    code, out, _ = run("verify", write(tmp_path / "t.json", record))
    return code, out


def test_verify_names_a_changed_card(tmp_path: Path) -> None:
    code, out = _tampered(tmp_path, "card")
    assert code == 1
    (line,) = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert "coup 5, card 2 (coups[4].cards[1])" in line and "the record says" in line


def test_verify_names_a_changed_server_seed(tmp_path: Path) -> None:
    code, out = _tampered(tmp_path, "server seed")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("NOT VERIFIED: shoe ")
    assert lines[1].startswith("FAIL commitment: SHA-256 of the server seed")


def test_verify_names_a_changed_client_seed(tmp_path: Path) -> None:
    code, out = _tampered(tmp_path, "client seed")
    verdict, first = out.splitlines()[:2]
    assert code == 1 and verdict.startswith("NOT VERIFIED") and "failures." in verdict
    assert first.startswith("FAIL digest:") and "client_seed" in first
    assert "commitment" not in out


def test_a_wrong_seed_gives_the_verdict_first_and_twenty_failures(tmp_path: Path) -> None:
    # Every coup fails against the wrong order: the first line says so, and the list is cut.
    record = played()[3]
    record["server_seed"] = "ff" + record["server_seed"][2:]
    record["commitment"] = hashlib.sha256(bytes.fromhex(record["server_seed"])).hexdigest()
    code, out, _ = run("verify", write(tmp_path / "w.json", record))
    lines = out.splitlines()
    total = int(lines[0].rsplit(": ", 1)[1].split()[0])
    assert code == 1 and total > 20 and lines[0].startswith("NOT VERIFIED")
    assert sum(line.startswith("FAIL") for line in lines) == 20
    assert lines[-1] == f"... and {total - 20} more (--json lists every one)."


def test_verify_names_a_changed_payout(tmp_path: Path) -> None:
    code, out = _tampered(tmp_path, "payout")
    assert code == 1
    (line,) = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert "coup 8 (coups[7].wagers[0].returned)" in line and "banker staking 1000" in line


def test_verify_json_report(tmp_path: Path) -> None:
    _, _, _, record = played()
    record["coups"][2]["winner"] = "nobody"
    code, out, _ = run("verify", "--json", write(tmp_path / "r.json", record))
    report = json.loads(out)
    assert code == 1 and report["ok"] is False
    assert [(f["coup"], f["card"], f["path"]) for f in report["failures"]] == [
        (2, None, "coups[2].winner")
    ]


def test_verify_reads_stdin() -> None:
    record = played()[3]
    assert run("verify", "-", stdin=json.dumps(record))[0] == 0
    record["digest"] = order_digest([0])
    assert run("verify", "-", stdin=json.dumps(record))[0] == 1
    assert_usage_error(*run("verify", "-", stdin="not json"), "not JSON")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{", "not JSON"),
        ("[1, 2]", "not a shoe record"),
        ('{"format": "something"}', "not a shoe record"),
        ('{"format": "baccarat-shoe-record/1"}', "missing"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_verify_refuses_what_is_not_a_record(
    tmp_path: Path, content: str | bytes, words: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert_usage_error(*run("verify", str(path)), words)


def test_verify_refuses_a_missing_file(tmp_path: Path) -> None:
    assert_usage_error(*run("verify", str(tmp_path / "nope.json")), "cannot read")


def test_the_installed_command_deals_and_verifies(tmp_path: Path) -> None:
    """The real console script, in its own process: deal a record, verify it, tamper, fail."""
    path = tmp_path / "real.json"
    deal = subprocess.run(
        [str(BACCARAT), "deal", *FAIR, "--decks", "1", "--record", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert deal.returncode == 0, deal.stderr
    verify = subprocess.run(
        [str(BACCARAT), "verify", str(path)], capture_output=True, text=True, timeout=120
    )
    assert verify.returncode == 0 and verify.stdout.startswith("OK")
    record = json.loads(path.read_text(encoding="utf-8"))
    record["coups"][0]["cards"][0] = "Ks" if record["coups"][0]["cards"][0] != "Ks" else "Kh"
    tampered = subprocess.run(
        [str(BACCARAT), "verify", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert tampered.returncode == 1 and "coups[0].cards[0]" in tampered.stdout
    broken = subprocess.run(
        [str(BACCARAT), "verify", str(tmp_path / "absent.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert broken.returncode == 2 and broken.stderr.startswith("baccarat: error:")

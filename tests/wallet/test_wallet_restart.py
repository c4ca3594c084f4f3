"""A reference wallet killed with SIGKILL and started again on its file keeps every balance,
every recorded answer and every tombstone; and its command refuses bad flags in one line."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reference_support import SECRET, ReferenceWallet, credit, debit, one, rollback
from typer.testing import CliRunner, Result

from baccarat.cli import app
from baccarat.wallet.contract import Ok, Refused, Unknown


@pytest.fixture
def own_wallet(tmp_path: Path) -> Iterator[ReferenceWallet]:
    wallet = ReferenceWallet(tmp_path).start("--seed", "7")
    try:
        yield wallet
    finally:
        wallet.kill()


def test_kill_and_restart_keeps_balances_answers_and_tombstones(
    own_wallet: ReferenceWallet,
) -> None:
    wallet = own_wallet
    wallet.player("alice", 10_000)
    wallet.player("bob", 500, "IDR")
    taken = debit("alice", 1_200)
    paid = credit("alice", taken, 2_400)
    ghost = debit("alice", 300)
    answers: list[tuple[str, dict[str, Any], Any]] = []
    for call, body in [("debit", taken), ("credit", paid), ("rollback", rollback("alice", ghost))]:
        answers.append((call, body, one(wallet, call, body)))  # type: ignore[arg-type]
    wallet.faults(drop_rate=1.0, calls=["debit"])  # committed, then the answer is lost
    lost = debit("alice", 700)
    assert isinstance(one(wallet, "debit", lost), Unknown)
    before = wallet.transactions()

    wallet.kill()
    wallet.start()

    assert wallet.transactions() == before
    assert wallet.db.stat().st_mode & 0o777 == 0o600  # balances: its owner's alone
    assert wallet.balance("alice") == 10_000 - 1_200 + 2_400 - 700
    assert wallet.balance("bob") == 500
    for call, body, first in answers:
        assert one(wallet, call, body) == first  # type: ignore[arg-type]
    assert isinstance(one(wallet, "debit", ghost), Refused)  # the tombstone survived
    again = one(wallet, "debit", lost)  # the faults are the command line's again: none
    assert isinstance(again, Ok)
    assert again.balance == 10_500
    back = one(wallet, "rollback", rollback("alice", lost))
    assert isinstance(back, Ok)
    assert back.balance == 11_200


def test_kill_during_a_hung_call_moves_nothing(own_wallet: ReferenceWallet) -> None:
    wallet = own_wallet
    wallet.player("carol", 1_000)
    wallet.faults(timeout_rate=1.0, hang_ms=60_000, calls=["debit"])
    hung = debit("carol", 400)
    assert isinstance(one(wallet, "debit", hung, timeout_s=0.3), Unknown)
    wallet.kill()
    wallet.start()
    assert wallet.balance("carol") == 1_000
    assert isinstance(one(wallet, "rollback", rollback("carol", hung)), Ok)  # a tombstone
    refused = one(wallet, "debit", hung)
    assert isinstance(refused, Refused)
    assert refused.code == "transaction_rolled_back"
    assert wallet.balance("carol") == 1_000


def _reference(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    base = ["--db", str(tmp_path / "w.db"), "--operator-id", "op", "--game-url", "http://g"]
    return CliRunner().invoke(app, ["wallet", "reference", *base, *args], env=env)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "exactly one of --secret and --secret-file"),
        (["--secret", "ab" * 32, "--secret-file", "x"], "exactly one of"),
        (["--secret", "xyz"], "32 to 128 hex digits"),
        (["--secret", "ab" * 8], "32 to 128 hex digits"),
        (["--secret-file", "/nonexistent/secret"], "--secret-file: cannot read"),
        (["--secret", "ab" * 32, "--error-rate", "1.5"], "--error-rate"),
        (["--secret", "ab" * 32, "--drop-rate", "-0.1"], "--drop-rate"),
        (["--secret", "ab" * 32, "--latency-ms", "-1"], "--latency-ms"),
        (["--secret", "ab" * 32, "--port", "0"], "--port"),
        (["--secret", "ab" * 32, "--operator-id", "op one"], "--operator-id"),
        (["--secret", "ab" * 32, "--game-url", "ftp://g"], "--game-url"),
        (["--secret", "ab" * 32, "--seed", "x"], "--seed"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = _reference(tmp_path, *args)
    assert done.exit_code == 2, done.output
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("baccarat: error: ")
    assert says in done.stderr
    assert not (tmp_path / "w.db").exists()  # nothing created


def test_a_bad_secret_from_the_environment_is_one_line(tmp_path: Path) -> None:
    done = _reference(tmp_path, env={"BACCARAT_WALLET_SECRET": "not-hex"})
    assert done.exit_code == 2
    assert "32 to 128 hex digits" in done.stderr


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = _reference(tmp_path, "--secret", SECRET.hex(), "--port", port)
    assert done.exit_code == 2
    assert done.stderr.count("\n") == 1
    assert "cannot serve on 127.0.0.1" in done.stderr
    assert not (tmp_path / "w.db").exists()

"""``baccarat studio shoe`` and ``studio robot`` as an operator runs them: the console script
in a process of its own, a pseudo-terminal for the shoe, Ctrl-C (SIGINT) to stop, and a
one-line error with exit 2 for each bad option."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from clock_driver import wait_until
from serving import BIN
from studio_support import DEALER, PASSWORD, SUPERVISOR, TABLE, FakeStudio
from typer.testing import CliRunner

from baccarat.cli import app

pytest_plugins = ("studio_support",)

runner = CliRunner()


class Running:
    """A command in a process of its own; its stdout and stderr collected as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(BIN / "baccarat"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "COLUMNS": "60"},  # narrow: a line must still be one line
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out)),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err)),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        def found() -> str | None:
            if self.process.poll() is not None and not any(text in x for x in self.out):
                raise AssertionError(f"exited {self.process.returncode}: {self.out} {self.err}")
            return next((line for line in self.out if text in line), None)

        return wait_until(found, timeout, f"{text!r} on stdout")

    def interrupt(self) -> int:
        """Ctrl-C, then the exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.finish()

    def finish(self, timeout: float = 20.0) -> int:
        code = self.process.wait(timeout)
        for reader in self._readers:
            reader.join(5)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def pty_path() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_shoe_forwards_reads_one_line_each_and_stops_on_ctrl_c(
    studio: FakeStudio, token_file: Path, pty_path: tuple[int, str]
) -> None:
    studio.betting_polls = studio.result_polls = 0
    studio.start_foreign_shoe()
    studio.faults["shoe7:6"] = ["500"] * 10_000  # the server never answers read 6
    master, path = pty_path
    shoe = Running(
        "studio", "shoe", "--table", TABLE, "--serial", path, "--url", studio.url,
        "--token-file", str(token_file), "--device", "shoe7",
    )  # fmt: skip
    try:
        shoe.wait_for("forwarding")
        os.write(master, b"1 As\r\n2 Kd\n\xff\xfe noise\n3 Qc\n4 Zz\n")
        assert shoe.wait_for("shoe7:3") == "shoe7:3  Q♣  player_1  seq 3  next banker_1"
        studio.halt()
        os.write(master, b"4 Ah\n5 Ah\n")  # refused, each once: the forwarder goes on
        halted = shoe.wait_for("read shoe7:5")
        studio.clear_halt()
        os.write(master, b"6 2h\n")
        wait_until(lambda: len(studio.attempts_of("shoe7:6")) >= 2, 20, "read 6 retried")
        code = shoe.interrupt()
    finally:
        shoe.kill()
    assert code == 0, shoe.err
    assert shoe.out[1:4] == [
        "shoe7:1  A♠  burn_1  seq 1  next burn",  # an ace: one more card burned
        "shoe7:2  K♦  burn_2  seq 2  next player_1",
        "shoe7:3  Q♣  player_1  seq 3  next banker_1",
    ]
    assert shoe.out[4:6] == [
        f" HALTED  table standard-studio is halted for a supervisor: read shoe7:{n} (Ah) was "
        "not stored. A supervisor must clear the halt on the console; reads are refused until "
        "then."
        for n in (4, 5)
    ]
    assert halted == shoe.out[5]
    assert [a.scan_id for a in studio.attempts if a.status == 409] == ["shoe7:4", "shoe7:5"]
    assert shoe.out[-2:] == [
        "unanswered shoe7:6 (2h): stopped before the server answered; it may or may not hold "
        "this card: check the console",
        "stopped: 3 read(s) answered",
    ]
    assert "skipped a line that is not a read: '\\xff\\xfe noise' (not ASCII)" in shoe.err
    assert "skipped a line that is not a read: '4 Zz' (bad card code 'Zz': unknown rank 'Z')" in (
        shoe.err
    )
    assert "shoe7:6: the server answered 500; sending it again in 0.25 s (attempt 2)" in shoe.err
    assert "Traceback" not in "\n".join(shoe.err)


def test_robot_deals_its_shoes_and_stops(
    studio: FakeStudio, token_file: Path, tmp_path: Path
) -> None:
    studio.end_after = 12
    studio.betting_polls = studio.result_polls = 1
    password = tmp_path / "dealer-password"
    password.write_text(PASSWORD + "\n")
    robot = Running(
        "studio", "robot", "--table", TABLE, "--url", studio.url, "--token-file", str(token_file),
        "--dealer", DEALER, "--password-file", str(password),
        "--supervisor", SUPERVISOR, "--supervisor-password-file", str(password),
        "--pace", "0", "--misscan-rate", "0.5", "--shoes", "2",
    )  # fmt: skip
    try:
        code = robot.finish(60)
    finally:
        robot.kill()
    assert code == 0, robot.err
    assert robot.out[0].startswith("robot robot-") and robot.out[0].endswith("; Ctrl-C stops")
    assert robot.out[-1] == "2 shoe(s) dealt: the robot stops"
    assert len(studio.shoe_bodies) == 2
    assert len([line for line in robot.out if " -> " in line]) == len(studio.reads)
    assert len(studio.confirms) == len(studio.misscans) > 0
    assert robot.err == []


def test_robot_stops_on_ctrl_c(studio: FakeStudio, token_file: Path, tmp_path: Path) -> None:
    password = tmp_path / "dealer-password"
    password.write_text(PASSWORD)
    robot = Running(
        "studio", "robot", "--table", TABLE, "--url", studio.url, "--token-file", str(token_file),
        "--dealer", DEALER, "--password-file", str(password), "--pace", "0.01",
    )  # fmt: skip
    try:
        robot.wait_for(":000005 ")
        code = robot.interrupt()
    finally:
        robot.kill()
    assert code == 0, robot.err
    assert robot.out[-1].startswith("stopped: 1 shoe(s) started, ")
    assert "Traceback" not in "\n".join(robot.err)


def error_of(*args: str) -> tuple[int, list[str]]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stderr.splitlines()


def shoe_args(url: str, token: str, serial: str = "/dev/null") -> list[str]:
    return ["studio", "shoe", "--table", TABLE, "--serial", serial, "--url", url,
            "--token-file", token]  # fmt: skip


def test_bad_shoe_options_are_one_line_errors(
    studio: FakeStudio, token_file: Path, tmp_path: Path, pty_path: tuple[int, str]
) -> None:
    url, token = studio.url, str(token_file)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    two = tmp_path / "two-words"
    two.write_text("token one\n")
    plain = tmp_path / "plain-file"
    plain.write_text("not a port")
    _, pty = pty_path
    cases = [
        (shoe_args(url, str(tmp_path / "nowhere")), f"--token-file: cannot read {tmp_path / 'nowhere'}: No such file or directory"),
        (shoe_args(url, str(empty)), f"--token-file: {empty} is empty"),
        (shoe_args(url, str(two)), f"--token-file: {two} does not hold one device token"),
        (shoe_args("ftp://studio", token), "--url: the server's URL is http:// or https:// and a host, not 'ftp://studio'"),
        (shoe_args("localhost:8000", token), "--url: the server's URL is http:// or https:// and a host, not 'localhost:8000'"),
        (shoe_args(url, token, str(tmp_path / "ttyNOPE")), f"--serial: cannot open {tmp_path / 'ttyNOPE'}: "),
        (shoe_args(url, token, str(plain)), f"--serial: cannot open {plain}: "),
        ([*shoe_args(url, token, pty), "--device", "shoe 7"], "--device: a device name is 1 to 43 of A-Z a-z 0-9 . _ : -, not 'shoe 7'"),
        ([*shoe_args(url, token, pty), "--table", "a/b"], "--table: a table's name is 1 to 64 of A-Z a-z 0-9 . _ -, not 'a/b'"),
        ([*shoe_args(url, token, pty), "--baud", "0"], "Invalid value for '--baud'"),
    ]  # fmt: skip
    for args, message in cases:
        code, lines = error_of(*args)
        assert code == 2, (args, lines)
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"baccarat: error: {message}"), (lines[0], message)
    assert studio.attempts == []


def test_bad_robot_options_are_one_line_errors(
    studio: FakeStudio, token_file: Path, tmp_path: Path
) -> None:
    good = tmp_path / "password"
    good.write_text(PASSWORD)
    wrong = tmp_path / "wrong"
    wrong.write_text("not the password")
    base = ["studio", "robot", "--table", TABLE, "--url", studio.url,
            "--token-file", str(token_file), "--dealer", DEALER]  # fmt: skip
    cases = [
        ([*base, "--password-file", str(tmp_path / "none")], f"--password-file: cannot read {tmp_path / 'none'}: No such file or directory"),
        ([*base, "--password-file", str(good), "--supervisor", SUPERVISOR], "--supervisor and --supervisor-password-file go together"),
        ([*base, "--password-file", str(good), "--misscan-rate", "1.5"], "Invalid value for '--misscan-rate'"),
        ([*base, "--password-file", str(good), "--shoes", "0"], "Invalid value for '--shoes'"),
        ([*base, "--password-file", str(wrong)], f"{DEALER} cannot log in: 401 unauthorized: wrong username or password"),
        ([*base, "--password-file", str(good), "--supervisor", SUPERVISOR, "--supervisor-password-file", str(wrong)], f"{SUPERVISOR} cannot log in: 401 unauthorized"),
    ]  # fmt: skip
    for args, message in cases:
        code, lines = error_of(*args)
        assert code == 2, (args, lines)
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"baccarat: error: {message}"), (lines[0], message)
    assert studio.attempts == [] and studio.shoe_bodies == []


#: Run in a fresh interpreter: the table service's packages cannot be imported.
WITHOUT_SERVER = """
import importlib, pkgutil, sys
from importlib.abc import MetaPathFinder
BLOCKED = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "argon2", "redis", "numpy"}

class Blocked(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, Blocked())
import baccarat.shoedevice
names = [i.name for i in pkgutil.walk_packages(baccarat.shoedevice.__path__, "baccarat.shoedevice.")]
for name in names:
    importlib.import_module(name)
print(sorted(names))
"""


def test_the_device_runs_on_the_device_extra_alone() -> None:
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_SERVER], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(
        [f"baccarat.shoedevice.{m}" for m in ("client", "forward", "lines", "physical", "robot")]
    )


WITHOUT_SERIAL = """
import sys
from importlib.abc import MetaPathFinder

class Blocked(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "serial":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Blocked())
from baccarat.cli import main
sys.argv = ["baccarat", *sys.argv[1:]]
main()
"""


def test_without_the_device_extra_the_command_says_which_to_install(token_file: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_SERIAL, *shoe_args("http://127.0.0.1:9", str(token_file))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr == (
        "baccarat: error: baccarat studio needs the device extra: pip install 'baccarat[device]'\n"
    )

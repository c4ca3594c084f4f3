"""``baccarat studio``: the device side of a studio table (``docs/studio.md``).

- ``studio shoe``: forwards a serial card-reading shoe's reads to the table, one line printed
  per read with the server's answer.
- ``studio robot``: a dealer robot that shuffles and deals a physical shoe through the device,
  for demos and load.

Both speak to the server over HTTP only and need the ``device`` extra (httpx, pyserial),
imported when they run. Other modules add their commands to ``studio_app``.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from baccarat.cli.app import app, console, fail

if TYPE_CHECKING:
    from baccarat.shoedevice.client import Retry
    from baccarat.shoedevice.forward import Event
    from baccarat.shoedevice.robot import Note

__all__ = ["studio_app"]

studio_app = typer.Typer(
    name="studio",
    help="Studio tables: a card-reading shoe's forwarder and a dealer robot.",
    no_args_is_help=True,
)
app.add_typer(studio_app, name="studio")

#: Notes beside the reads (lines skipped, retries) go to stderr: stdout is one line per read.
notes = Console(stderr=True, highlight=False)
_TABLE = re.compile(r"[A-Za-z0-9._-]{1,64}")

TableOption = Annotated[str, typer.Option(help="The studio table, e.g. standard-studio.")]
UrlOption = Annotated[str, typer.Option(help="The server, e.g. https://tables.example.")]
TokenOption = Annotated[
    Path, typer.Option(help="A file holding the table's device token (studio device-token).")
]


@studio_app.command("shoe")
def shoe_command(
    table: TableOption,
    serial: Annotated[str, typer.Option(help="The shoe's serial port, e.g. /dev/ttyUSB0.")],
    url: UrlOption,
    token_file: TokenOption,
    device: Annotated[
        str | None,
        typer.Option(help="The device's name in each scan_id (default: the port's name)."),
    ] = None,
    baud: Annotated[int, typer.Option(help="The port's speed in baud.", min=1)] = 9600,
) -> None:
    """Forward a serial card-reading shoe's reads to a studio table until Ctrl-C."""
    from baccarat.shoedevice.client import DeviceClient, RefusalError
    from baccarat.shoedevice.forward import forward, open_serial
    from baccarat.shoedevice.lines import check_device

    base = _base_url(url)
    _check_table(table)
    token = _device_token(token_file)
    name = device if device is not None else Path(serial).name
    try:
        check_device(name)
    except ValueError as error:
        fail(f"--device: {error}" if device is not None else f"{error}: name it with --device")
    try:
        source = open_serial(serial, baud)
    except (OSError, ValueError) as error:
        fail(f"--serial: cannot open {serial}: {error}")
    stop = threading.Event()  # never set: Ctrl-C stops the forwarder, even mid-retry
    printer = _ReadPrinter(table)
    with DeviceClient(base, table, token, wait=stop.wait, on_retry=printer) as client:
        _say(
            f"forwarding {serial} (device {name}) to table {table} at {base}; Ctrl-C stops",
        )
        try:
            forward(source, client, name, printer, stop)
        except KeyboardInterrupt:
            _say(f"stopped: {printer.answered} read(s) answered")
        except RefusalError as refusal:
            fail(f"table {table} refuses this device ({refusal}): no read can be taken", 1)
        except OSError as error:
            fail(f"the serial port {serial} failed: {error}", 1)
        finally:
            source.close()


class _ReadPrinter:
    """One line per read on stdout, the reason of each line skipped and each retry on stderr."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.answered = 0

    def __call__(self, event: Event | Retry) -> None:
        from baccarat.shoedevice.client import Retry
        from baccarat.shoedevice.forward import Forwarded, RefusedRead, Unanswered
        from baccarat.shoedevice.lines import NotARead

        if isinstance(event, Forwarded):
            self.answered += 1
            answer = event.answer
            line = Text.assemble(
                (answer.scan_id, "cyan"),
                f"  {answer.card.pretty}  {answer.position}  seq {answer.seq}  next ",
                (answer.next, "bold"),
                (" (repeat: answered before)" if answer.repeat else "", "yellow"),
            )
            _say(line)
        elif isinstance(event, RefusedRead):
            refusal = event.refusal
            if refusal.halted:
                _say(
                    Text.assemble(
                        (" HALTED ", "bold white on red"),
                        f" table {self.table} is halted for a supervisor: read {event.scan_id} "
                        f"({event.card}) was not stored. A supervisor must clear the halt on the "
                        "console; reads are refused until then.",
                    )
                )
                return
            hint = (
                ": the dealer starts a shoe first (shoe change)"
                if refusal.code == "no_shoe"
                else ""
            )
            _say(
                Text.assemble(
                    ("refused", "bold yellow"),
                    f" {event.scan_id} ({event.card}), not stored: {refusal}{hint}",
                )
            )
        elif isinstance(event, NotARead):
            _aside(
                Text(f"skipped a line that is not a read: {event.shown} ({event.reason})", "dim")
            )
        elif isinstance(event, Retry):
            _aside(
                Text(
                    f"{event.scan_id}: {event.why}; sending it again in {event.delay:g} s "
                    f"(attempt {event.failures + 1})",
                    "yellow",
                )
            )
        elif isinstance(event, Unanswered):
            _say(
                Text.assemble(
                    ("unanswered", "bold red"),
                    f" {event.scan_id} ({event.card}): stopped before the server answered; it "
                    "may or may not hold this card: check the console",
                )
            )


@studio_app.command("robot")
def robot_command(
    table: TableOption,
    url: UrlOption,
    token_file: TokenOption,
    dealer: Annotated[str, typer.Option(help="The dealer's staff username.")],
    password_file: Annotated[Path, typer.Option(help="A file holding the dealer's password.")],
    pace: Annotated[
        float, typer.Option(help="Seconds between two cards drawn.", min=0.0, max=3600.0)
    ] = 1.5,
    misscan_rate: Annotated[
        float,
        typer.Option(help="The share of hand cards not read, entered by hand.", min=0.0, max=1.0),
    ] = 0.02,
    supervisor: Annotated[
        str | None, typer.Option(help="A supervisor who confirms the robot's misscans.")
    ] = None,
    supervisor_password_file: Annotated[
        Path | None, typer.Option(help="A file holding the supervisor's password.")
    ] = None,
    shoes: Annotated[
        int | None, typer.Option(help="Stop after dealing N shoes (default: never).", min=1)
    ] = None,
) -> None:
    """Deal a studio table as a robot dealer: shuffled physical shoes, read through the device."""
    import httpx

    from baccarat.shoedevice.client import DeviceClient
    from baccarat.shoedevice.robot import LoginError, Robot, RobotError, Staff

    base = _base_url(url)
    _check_table(table)
    if (supervisor is None) != (supervisor_password_file is None):
        fail("--supervisor and --supervisor-password-file go together")
    token = _device_token(token_file)
    dealer_login = Staff(dealer, _password(password_file, "--password-file"))
    supervisor_login = None
    if supervisor is not None and supervisor_password_file is not None:
        password = _password(supervisor_password_file, "--supervisor-password-file")
        supervisor_login = Staff(supervisor, password)
    stop = threading.Event()  # never set: Ctrl-C stops the robot
    with (
        httpx.Client() as http,
        DeviceClient(base, table, token, http=http, wait=stop.wait, on_retry=_retry_note) as device,
    ):
        robot = Robot(
            http=http,
            url=base,
            table=table,
            device=device,
            dealer=dealer_login,
            supervisor=supervisor_login,
            pace=pace,
            misscan_rate=misscan_rate,
            shoes=shoes,
            wait=stop.wait,
            note=_robot_note,
        )
        _say(
            f"robot {robot.device_name} deals table {table} at {base} as {dealer}; Ctrl-C stops",
        )
        try:
            robot.run()
        except KeyboardInterrupt:
            _say(
                f"stopped: {robot.shoes_started} shoe(s) started, {robot.reads} card(s) read, "
                f"{robot.misscans} misscan(s)",
            )
        except LoginError as error:
            fail(str(error))
        except RobotError as error:
            fail(str(error), 1)


_NOTE_STYLES = {
    "halted": "bold white on red",
    "refused": "bold yellow",
    "misscan": "magenta",
    "confirm": "magenta",
    "shoe": "bold green",
    "unreachable": "yellow",
    "waiting": "dim",
}


def _robot_note(note: Note) -> None:
    _say(Text(note.text, _NOTE_STYLES.get(note.kind, "")))


def _retry_note(retry: Retry) -> None:
    _aside(Text(f"{retry.scan_id}: {retry.why}; sending it again in {retry.delay:g} s", "yellow"))


def _say(text: str | Text) -> None:
    # One line whatever the terminal's width, and text from the wire is never Rich markup.
    console.print(text, markup=False, soft_wrap=True)


def _aside(text: str | Text) -> None:
    notes.print(text, markup=False, soft_wrap=True)


def _base_url(url: str) -> str:
    from baccarat.shoedevice.client import check_url

    try:
        return check_url(url)
    except ValueError as error:
        fail(f"--url: {error}")


def _check_table(table: str) -> None:
    if not _TABLE.fullmatch(table):
        fail(f"--table: a table's name is 1 to 64 of A-Z a-z 0-9 . _ -, not {table!r}")


def _read_secret(path: Path, option: str) -> str:
    """A file's text, or a one-line error naming the option; never its content."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        fail(f"{option}: cannot read {path}: {reason}")
    if not text.strip():
        fail(f"{option}: {path} is empty")
    return text


def _device_token(path: Path) -> str:
    token = _read_secret(path, "--token-file").strip()
    # It goes in a header: one word of visible ASCII, or it is not a token.
    if not (token.isascii() and token.isprintable()) or any(c.isspace() for c in token):
        fail(f"--token-file: {path} does not hold one device token")
    return token


def _password(path: Path, option: str) -> str:
    # A password may hold blanks: only the file's line ending is not part of it.
    return _read_secret(path, option).rstrip("\r\n")

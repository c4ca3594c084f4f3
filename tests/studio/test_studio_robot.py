"""The dealer robot's decisions, against a real HTTP server of the contract
(``studio_support.FakeStudio``) on a test's clock: its waits are recorded, never slept.

What a robot pushes must be what a real shoe would read: every card the table takes, read or
entered by hand, is the next card of the robot's physical shoe, and the table (not the robot)
says where it goes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import pytest
from studio_support import DEALER, DEVICE_TOKEN, PASSWORD, SUPERVISOR, TABLE, FakeStudio

from baccarat.coup import deal
from baccarat.shoedevice.client import Backoff, DeviceClient
from baccarat.shoedevice.physical import PhysicalShoe
from baccarat.shoedevice.robot import (
    CUT_CARD,
    POSITIONS,
    LoginError,
    Note,
    Robot,
    RobotError,
    Staff,
)

pytest_plugins = ("studio_support",)

PACE, POLL = 1.5, 0.5
NAME = "robot-test"


@dataclass
class Run:
    """A robot, the shoes it shuffled, what it said and every wait it asked for."""

    studio: FakeStudio
    robot: Robot
    made: list[PhysicalShoe] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)

    def said(self, kind: str) -> list[str]:
        return [note.text for note in self.notes if note.kind == kind]


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client() as client:
        yield client


def robot_for(
    studio: FakeStudio,
    http: httpx.Client,
    *,
    shoes: int | None = 1,
    misscan_rate: float = 0.0,
    supervisor: bool = False,
    on_wait: Callable[[Run, float], bool] | None = None,
    decks: int = 8,
) -> Run:
    """A robot on ``studio`` whose waits call ``on_wait`` (True: stop) instead of sleeping."""
    run: Run

    def new_shoe() -> PhysicalShoe:
        shoe = PhysicalShoe.shuffled(decks=decks)
        run.made.append(shoe)
        return shoe

    def wait(seconds: float) -> bool:
        run.waits.append(seconds)
        return on_wait(run, seconds) if on_wait is not None else False

    device = DeviceClient(
        studio.url, TABLE, DEVICE_TOKEN, http=http, backoff=Backoff(first=0.01), wait=wait
    )
    robot = Robot(
        http=http,
        url=studio.url,
        table=TABLE,
        device=device,
        dealer=Staff(DEALER, PASSWORD),
        supervisor=Staff(SUPERVISOR, PASSWORD) if supervisor else None,
        pace=PACE,
        misscan_rate=misscan_rate,
        shoes=shoes,
        wait=wait,
        note=lambda note: run.notes.append(note),
        rng=random.Random(5),
        new_shoe=new_shoe,
        device_name=NAME,
    )
    run = Run(studio, robot)
    return run


def cards_of_shoe(studio: FakeStudio, shoe: int) -> list[object]:
    return [placed.card for placed in studio.placed if placed.shoe == shoe]


def test_a_whole_shoe_is_dealt_in_the_physical_order_where_the_table_says(
    studio: FakeStudio, http: httpx.Client
) -> None:
    run = robot_for(studio, http, shoes=1)
    run.robot.run()

    assert studio.shoe_bodies == [
        {"shuffled_by": "robot", "decks": 8, "deck_serials": [], "cut_card": CUT_CARD}
    ]
    (shoe,) = run.made
    taken = cards_of_shoe(studio, 1)
    # The cut card came out (14 from the back) and the shoe was dealt to the end of its coup.
    assert 416 - CUT_CARD <= len(taken) <= 416 - CUT_CARD + 5
    assert taken == list(shoe.order[: len(taken)])
    assert shoe.drawn == len(taken)
    # The table said where every card went: a burn, then whole coups, never a card too soon.
    positions = [placed.position for placed in studio.placed]
    burn = [p for p in positions if p.startswith("burn_")]
    assert positions[: len(burn)] == [f"burn_{n}" for n in range(1, len(burn) + 1)]
    assert set(positions[len(burn) :]) <= POSITIONS
    coups = studio.coups
    assert sum(len(coup) for coup in coups) == len(taken) - len(burn)
    assert all(len(deal(coup).cards) == len(coup) for coup in coups)
    assert {attempt.state for attempt in studio.attempts} <= POSITIONS | {"burn"}
    assert all(attempt.status == 200 for attempt in studio.attempts)
    # One read per card, each its own scan_id, each after the pace.
    scan_ids = [attempt.scan_id for attempt in studio.attempts]
    assert scan_ids == [f"{NAME}:{n:06d}" for n in range(1, len(taken) + 1)]
    assert run.waits.count(PACE) == len(taken)
    assert set(run.waits) == {PACE, POLL}
    assert (run.robot.shoes_started, run.robot.reads, run.robot.misscans) == (1, len(taken), 0)
    assert len(run.said("card")) == len(taken)
    assert run.said("shoe") == ["shoe 1: 416 cards shuffled, in play"]
    assert run.said("done") == ["1 shoe(s) dealt: the robot stops"]
    assert studio.logins == [DEALER]


def test_each_shoe_is_a_new_shuffle_and_the_robot_stops_after_n(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 20
    run = robot_for(studio, http, shoes=2)
    run.robot.run()
    assert len(studio.shoe_bodies) == 2
    assert len(run.made) == 2 and run.made[0].order != run.made[1].order
    for number, shoe in enumerate(run.made, 1):
        taken = cards_of_shoe(studio, number)
        assert 20 <= len(taken) < 30
        assert taken == list(shoe.order[: len(taken)])
    assert studio.next == "shoe_change"  # the third is not started


def test_misscans_are_entered_by_hand_and_confirmed_by_the_supervisor(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 25
    run = robot_for(studio, http, misscan_rate=1.0, supervisor=True)
    run.robot.run()
    (shoe,) = run.made
    taken = cards_of_shoe(studio, 1)
    assert taken == list(shoe.order[: len(taken)])
    # Every card of a hand was entered by hand; the burn was read.
    for placed in studio.placed:
        assert placed.how == ("hand" if placed.position in POSITIONS else "read")
    hand = [placed for placed in studio.placed if placed.how == "hand"]
    assert [(who, body) for who, body in studio.misscans] == [
        (DEALER, {"card": placed.card.code, "reason": "robot: card not read"}) for placed in hand
    ]
    assert [who for who, _ in studio.confirms] == [SUPERVISOR] * len(hand)
    assert run.robot.misscans == len(hand) and run.robot.reads == len(taken) - len(hand)
    assert len(run.said("misscan")) == len(run.said("confirm")) == len(hand)


def test_without_a_supervisor_the_robot_waits_for_a_person_to_confirm(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 12
    pending_polls: list[int] = [0]

    def person(run: Run, seconds: float) -> bool:
        if studio.next == "misscan_pending":
            pending_polls[0] += 1
            if pending_polls[0] % 3 == 0:  # a supervisor gets to the console after a while
                studio.confirm_by_person()
        return False

    run = robot_for(studio, http, misscan_rate=1.0, on_wait=person)
    run.robot.run()
    hand = [placed for placed in studio.placed if placed.how == "hand"]
    assert hand and [who for who, _ in studio.confirms] == ["person"] * len(hand)
    assert pending_polls[0] == 3 * len(hand)
    # Said once for each misscan, however long the wait.
    assert run.said("waiting") == ["a misscan waits for a supervisor to confirm it"] * len(hand)
    taken = cards_of_shoe(studio, 1)
    assert taken == list(run.made[0].order[: len(taken)])


def test_a_halted_table_is_waited_on_until_a_supervisor_clears_it(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 20
    studio.faults[f"{NAME}:000010"] = ["halt"]  # the server finds the tenth read impossible
    halted_polls: list[int] = [0]

    def supervisor(run: Run, seconds: float) -> bool:
        if studio.halted:
            halted_polls[0] += 1
            if halted_polls[0] == 4:
                studio.clear_halt()
        return False

    run = robot_for(studio, http, on_wait=supervisor)
    run.robot.run()
    (refused,) = [text for text in run.said("halted") if "refused" in text]
    assert refused.startswith(f"{NAME}:000010 ")
    assert run.said("halted")[1:] == [
        f"TABLE {TABLE} IS HALTED: a supervisor must clear the halt on the console"
    ]
    # Nothing was pushed while the table was halted; the refused card left the shoe all the same.
    assert [a.status for a in studio.attempts].count(409) == 1
    assert halted_polls[0] == 4
    order = list(run.made[0].order)
    taken = cards_of_shoe(studio, 1)
    assert taken == order[:9] + order[10 : len(taken) + 1]


def test_an_expired_login_is_renewed(studio: FakeStudio, http: httpx.Client) -> None:
    studio.end_after = 12

    def expire_once(run: Run, seconds: float) -> bool:
        if run.robot.reads == 5 and studio.logins == [DEALER]:
            studio.expire_staff_tokens()
        return False

    run = robot_for(studio, http, on_wait=expire_once)
    run.robot.run()
    assert studio.logins == [DEALER, DEALER]
    assert run.robot.shoes_started == 1 and run.said("done")


def test_a_shoe_the_robot_did_not_shuffle_is_not_dealt(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.start_foreign_shoe()  # someone else's shoe: the robot cannot know its cards
    studio.end_after = 10

    def end_it(run: Run, seconds: float) -> bool:
        if run.waits.count(POLL) == 5 and studio.shoes == 1:
            studio.end_shoe()  # ended on the console
        return False

    run = robot_for(studio, http, on_wait=end_it)
    run.robot.run()
    assert run.said("waiting") == [
        "a shoe the robot did not shuffle is in play: it cannot know what that shoe holds, so "
        "it waits for the shoe change (deal it out by hand, or end it on the console)"
    ]
    assert {placed.shoe for placed in studio.placed} == {2}
    assert len(studio.shoe_bodies) == 1


def test_a_shoe_someone_else_starts_first_is_not_dealt_from_the_robots_box(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 10

    def someone_else(fake: FakeStudio) -> None:
        if fake.next == "shoe_change" and fake.shoes == 1:
            fake.start_foreign_shoe()  # between the robot's look and its shoe change

    def end_it(run: Run, seconds: float) -> bool:
        if studio.shoes == 2 and run.waits.count(POLL) >= 12:
            studio.end_shoe()
        return False

    studio.after_console = someone_else
    run = robot_for(studio, http, shoes=2, on_wait=end_it)
    run.robot.run()
    assert len(run.made) == 3  # the second, shuffled for the shoe change refused, never dealt
    assert run.said("refused") == [
        "the shoe change was refused (409 shoe_in_play: a shoe is in play); trying again"
    ]
    assert {placed.shoe for placed in studio.placed} == {1, 3}
    for number, shoe in ((1, run.made[0]), (3, run.made[2])):
        taken = cards_of_shoe(studio, number)
        assert taken == list(shoe.order[: len(taken)])
    assert run.robot.shoes_started == 2


def test_told_to_stop_the_robot_stops_between_cards(studio: FakeStudio, http: httpx.Client) -> None:
    run = robot_for(studio, http, shoes=None, on_wait=lambda run, s: run.robot.reads >= 7)
    run.robot.run()
    assert run.robot.reads == 7 and len(studio.placed) == 7


def test_a_shoe_that_runs_out_before_the_shoe_change_is_an_error(
    studio: FakeStudio, http: httpx.Client
) -> None:
    studio.end_after = 10**6  # the server never calls the shoe change
    run = robot_for(studio, http, decks=1)
    with pytest.raises(RobotError, match="all 52 cards of the shoe are drawn, and the server"):
        run.robot.run()
    assert len(studio.placed) == 52


@pytest.mark.parametrize("who", ["dealer", "supervisor"])
def test_a_wrong_password_is_a_login_error(
    studio: FakeStudio, http: httpx.Client, who: str
) -> None:
    studio.add_staff(DEALER if who == "dealer" else SUPERVISOR, "another password", who)
    run = robot_for(studio, http, supervisor=True)
    name = DEALER if who == "dealer" else SUPERVISOR
    with pytest.raises(LoginError, match=f"{name} cannot log in: 401 unauthorized"):
        run.robot.run()
    assert studio.attempts == []

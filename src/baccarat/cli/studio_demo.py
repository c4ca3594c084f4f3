"""The demo's dealer robot inside ``baccarat serve --studio-robot TABLE``.

It deals through the same doors as a person and a shoe: an operator account ``studio-robot``
(created if missing; its password is new at every start, kept only in this process's memory,
stored as its argon2id hash, and the account's old sessions end) logs in to the console and
confirms its own misscans, and a device token of its own (the robot's earlier ones at the
table revoked) pushes the cards. Both are audited. An account an admin disabled stays
disabled: the server then starts without its robot, saying so in one line.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from baccarat.cli.app import console, fail

__all__ = ["ROBOT_USER", "start_robot"]

ROBOT_USER = "studio-robot"
_LABEL = "studio robot"
log = logging.getLogger("baccarat.studio")


def _credentials(database_url: str, table: str) -> tuple[str, str]:
    """The robot's account and device token, made fresh; (password, token)."""
    from sqlalchemy import select, update

    from baccarat.passwords import hash_password
    from baccarat.store import Database, db_now
    from baccarat.store.audit_log import append_audit
    from baccarat.store.device_tokens import issue_device_token
    from baccarat.store.schema import device_tokens
    from baccarat.store.staff import create_staff, find_staff, set_staff_password

    password = secrets.token_urlsafe(24)
    stored = hash_password(password)
    database = Database(database_url)
    try:
        with database.write() as c:
            now = db_now(c)
            member = find_staff(c, ROBOT_USER)
            if member is None:
                member = create_staff(c, ROBOT_USER, "operator", stored, now)
            elif member.disabled_at is not None:
                fail(f"the {ROBOT_USER!r} account is disabled: serve without --studio-robot")
            else:
                set_staff_password(c, member.id, stored, now)
            earlier = select(device_tokens.c.id).where(
                device_tokens.c.table_id == table,
                device_tokens.c.label == _LABEL,
                device_tokens.c.revoked_at.is_(None),
            )
            c.execute(
                update(device_tokens)
                .where(device_tokens.c.id.in_(earlier.scalar_subquery()))
                .values(revoked_at=now)
            )
            row, token = issue_device_token(
                c, table_id=table, label=_LABEL, by="system:cli", at=now
            )
            details = {"table": table, "staff": ROBOT_USER, "token_id": row.id}
            append_audit(c, now, "system:cli", "studio_robot_start", details)
    finally:
        database.dispose()
    return password, token


def start_robot(database_url: str, url: str, table: str) -> threading.Event:
    """Start the robot dealing ``table`` of the server at ``url`` on a thread of its own, once
    the server answers; set the event returned to stop it."""
    password, token = _credentials(database_url, table)
    stop = threading.Event()
    thread = threading.Thread(
        target=_run, args=(url, table, password, token, stop), name="studio-robot", daemon=True
    )
    thread.start()
    console.print(f"the dealer robot deals {table} (a demo: its cards come from its own shoe)")
    return stop


def _run(url: str, table: str, password: str, token: str, stop: threading.Event) -> None:
    import httpx

    from baccarat.shoedevice.client import DeviceClient
    from baccarat.shoedevice.robot import Robot, RobotError, Staff

    with httpx.Client(timeout=10.0) as http:
        deadline = time.monotonic() + 120
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                if http.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            stop.wait(0.5)
        login = Staff(ROBOT_USER, password)
        _take_the_table(http, url, table, login)
        with DeviceClient(url, table, token, http=http, wait=stop.wait) as device:
            robot = Robot(
                http=http,
                url=url,
                table=table,
                device=device,
                dealer=login,
                supervisor=login,
                wait=stop.wait,
            )
            try:
                robot.run()
            except RobotError as error:
                log.warning("the dealer robot of %s stopped: %s", table, error)


def _take_the_table(http: Any, url: str, table: str, login: Any) -> None:
    """The robot sits down at the table, as a dealer does (shown to the players, audited)."""
    import httpx

    try:
        answer = http.post(
            f"{url}/api/admin/login", json={"username": login.username, "password": login.password}
        )
        if answer.status_code == 201:
            token = answer.json()["token"]
            http.post(
                f"{url}/api/studio/tables/{table}/dealer",
                headers={"Authorization": f"Bearer {token}"},
            )
    except httpx.HTTPError as error:  # the robot deals all the same; only the name is missing
        log.warning("the dealer robot did not take %s: %s", table, error)

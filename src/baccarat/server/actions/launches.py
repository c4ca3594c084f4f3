"""Game launches (provider mode): an operator's signed request seats its player and gets a
one-time link; the page trades the link's token for a player session; an operator's player
sees the balance of the operator's wallet.

``launch`` checks, in this order and before writing anything: the headers
(``X-Operator-Id`` the path's, ``X-Timestamp`` within the replay window of the server's
clock, ``X-Signature``), the operator (known, not disabled), the signature over the raw body
(``wallet.contract.verify``: the current secret, or the previous one within its grace), a
replay (the same signature seen before, ``store.launches``), and then the body (the
operator's currency, played by this server's tables; the language; the table). Only then, in
the same transaction, it records the signature, seats the player and issues the token: a
refusal creates nothing, and of two copies of one request only one gets a link (the
operator's row is held meanwhile, and the signature is a primary key).

``trade`` is the launch's login: the token used up, a session opened like a login's (a
locked or closed account, a break: refused, and the token left as it was), the
responsible-gaming session started or joined, on record in the audit chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from pydantic import ValidationError
from sqlalchemy import Connection, select

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible import PlayerState, Session, may_play
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.devices import issue_seat
from baccarat.server.launch_models import LaunchAnswer, LaunchBody, Launched
from baccarat.server.models import Me, SessionModel
from baccarat.server.service import Service
from baccarat.store.audit_log import append_audit
from baccarat.store.launches import (
    Launch,
    Unusable,
    issue_launch,
    record_request,
    redeem_launch,
    request_seen,
    seat_player,
)
from baccarat.store.operators import (
    OperatorPlayer,
    find_operator,
    operator_endpoint,
    operator_secrets,
    player_operator,
)
from baccarat.store.player_status import get_status
from baccarat.store.responsible import Controls, load_controls, save_controls
from baccarat.store.schema import operator_players
from baccarat.store.sessions import open_session
from baccarat.wallet.client import WalletEndpoint
from baccarat.wallet.contract import (
    HEADER_OPERATOR,
    HEADER_SIGNATURE,
    HEADER_TIMESTAMP,
    REPLAY_WINDOW_MS,
    Ok,
    Unknown,
    header,
    parse_timestamp,
    verify,
)

__all__ = ["Launches", "operator_me"]

_C = RefusalCode


def _unsigned(message: str) -> Refusal:
    return Refusal(_C.INVALID_SIGNATURE, message)


def _status_refusal(connection: Connection, player_id: str) -> Refusal | None:
    """An operator's lock or closure of the account (``actions.accounts`` says the same)."""
    state = get_status(connection, player_id).state
    if state == "closed":
        return Refusal(_C.ACCOUNT_CLOSED, "this account is closed")
    if state == "locked":
        return Refusal(_C.ACCOUNT_LOCKED, "this account is locked: contact support")
    return None


@dataclass(frozen=True, slots=True)
class _Traded:
    token: str
    expires: int
    session: Session
    launch: Launch
    operator: str
    name: str
    currency: str


class _RefusedError(Exception):
    """A refusal found after the token was used up: raised so that its transaction rolls back."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class Launches:
    """The launches of one server, judged by its clock ``clock``."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    def _body_refusal(self, body: LaunchBody, operator_currency: str) -> Refusal | None:
        """Why the verified body cannot be launched here, if it cannot."""
        if body.currency != operator_currency:
            message = f"the operator plays in {operator_currency}, not {body.currency}"
            return Refusal(_C.INVALID_REQUEST, message)
        rulesets = self.service.rulesets()
        if body.table_id is not None:
            ruleset = rulesets.get(body.table_id)
            if ruleset is None:
                return Refusal(_C.TABLE_NOT_FOUND, f"there is no table {body.table_id!r}")
            if ruleset.currency != body.currency:
                message = f"table {body.table_id!r} plays in {ruleset.currency}"
                return Refusal(_C.INVALID_REQUEST, message)
        elif body.currency not in {ruleset.currency for ruleset in rulesets.values()}:
            return Refusal(_C.INVALID_REQUEST, f"no table of this server plays in {body.currency}")
        return None

    async def launch(
        self, operator_id: str, headers: Mapping[str, str], raw: bytes, base_url: str
    ) -> LaunchAnswer | Refusal:
        """Seat the operator's player and answer the one-time launch URL (under
        ``base_url``), or why not, having written nothing."""
        if header(headers, HEADER_OPERATOR) != operator_id:
            return _unsigned(f"send {HEADER_OPERATOR}: {operator_id}, the operator of the path")
        timestamp = parse_timestamp(header(headers, HEADER_TIMESTAMP))
        signature = header(headers, HEADER_SIGNATURE) or ""
        if timestamp is None or not signature:
            return _unsigned(
                f"send {HEADER_TIMESTAMP} (ms since the Unix epoch) and {HEADER_SIGNATURE}"
            )
        now = self.clock.now_ms()
        if abs(now - timestamp) > REPLAY_WINDOW_MS:
            return _unsigned(
                f"{HEADER_TIMESTAMP} is more than {REPLAY_WINDOW_MS // 1000} s from the "
                f"server's clock ({now})"
            )
        vault = self.service.vault

        def run(c: Connection) -> tuple[str, int] | Refusal:
            operator = find_operator(c, operator_id, lock=True)
            if operator is None or not operator.active:
                return _unsigned(f"there is no active operator {operator_id!r}")
            secrets = operator_secrets(c, vault, operator_id, now)
            if not verify(secrets, timestamp, raw, signature, now):
                return _unsigned("the signature does not match the body and timestamp")
            if request_seen(c, operator_id, signature):
                return Refusal(_C.REPLAYED_REQUEST, "this request was received before")
            try:
                body = LaunchBody.model_validate_json(raw)
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(part) for part in first["loc"])
                message = f"{where}: {first['msg']}" if where else str(first["msg"])
                return Refusal(_C.INVALID_REQUEST, message)
            refusal = self._body_refusal(body, operator.currency)
            if refusal is not None:
                return refusal
            known = c.scalar(
                select(operator_players.c.player_id).where(
                    operator_players.c.operator_id == operator_id,
                    operator_players.c.external_id == body.player_id,
                )
            )
            if known is not None and (refusal := _status_refusal(c, known)) is not None:
                return refusal
            record_request(c, operator_id, signature, now)
            player_id = seat_player(
                c,
                operator_id=operator_id,
                external_id=body.player_id,
                display_name=body.display_name.strip() or body.player_id,
                currency=body.currency,
                language=body.language,
                at=now,
            )
            token, expires = issue_launch(
                c,
                operator_id=operator_id,
                player_id=player_id,
                table_id=body.table_id,
                language=body.language,
                at=now,
            )
            details = {"operator_id": operator_id, "table_id": body.table_id}
            append_audit(c, now, f"player:{player_id}", "launch", details)
            return token, expires

        made = await self.service.runner.write(run)
        if isinstance(made, Refusal):
            return made
        token, expires = made
        return LaunchAnswer(
            launch_url=f"{base_url.rstrip('/')}/launch?token={token}", expires_at=iso_utc(expires)
        )

    async def trade(self, token: str) -> Launched | Refusal:
        """The launch token traded (once) for a player session, as a login's."""
        now = self.clock.now_ms()
        lifetime = self.service.config.session_lifetime_ms

        def run(c: Connection) -> _Traded:
            launch = redeem_launch(c, token, now)
            if isinstance(launch, Unusable):
                if launch.reason == "used":
                    raise _RefusedError(
                        Refusal(_C.LAUNCH_USED, "this launch link was used already")
                    )
                message = "this launch link is not valid or has expired: launch the game again"
                raise _RefusedError(Refusal(_C.LAUNCH_EXPIRED, message))
            pid = launch.player_id
            operator = find_operator(c, launch.operator_id)
            seat = player_operator(c, pid)
            if operator is None or not operator.active or seat is None:
                message = "the operator of this launch link is disabled"
                raise _RefusedError(Refusal(_C.LAUNCH_EXPIRED, message))
            controls = load_controls(c, [pid], lock=True).get(pid, Controls())
            moment = from_epoch_ms(now)
            refusal = _status_refusal(c, pid) or may_play(
                PlayerState(breaks=controls.breaks), moment
            )
            if refusal is not None:
                raise _RefusedError(refusal)
            session_token, expires = open_session(c, pid, now, lifetime)
            running = controls.session
            # A second launch (another device) joins the running session, as a second login.
            if running is not None and not running.limit_reached(moment):
                session = running
            else:
                session = Session.start(moment, controls.session_settings)
            save_controls(c, pid, replace(controls, session=session), now)
            details = {"operator_id": launch.operator_id, "expires_at": iso_utc(expires)}
            append_audit(c, now, f"player:{pid}", "launch_login", details)
            return _Traded(
                session_token,
                expires,
                session,
                launch,
                operator.name,
                seat.display_name,
                seat.currency,
            )

        try:
            traded = await self.service.runner.write(run)
        except _RefusedError as refused:
            return refused.refusal
        pid = traded.launch.player_id
        self.service.tokens.know(traded.token, pid)
        found = await self.service.runner.read(lambda c: _seat(c, self.service, pid))
        # The session is open whatever the wallet says now: the page reads the balance again.
        balance = None if found is None else await _wallet_balance(self.service, found[0], found[2])
        return Launched(
            token=traded.token,
            player_id=pid,
            username=traded.name,
            expires_at=iso_utc(traded.expires),
            previous_login_at=None,
            failed_logins=0,
            seat_device=issue_seat(await self.service.device_key(), pid),
            balance=balance if isinstance(balance, int) else None,
            currency=traded.currency,
            session=SessionModel.model_validate(traded.session.to_json()),
            language="id" if traded.launch.language == "id" else "en",
            table_id=traded.launch.table_id,
            operator=traded.operator,
        )


def _seat(
    c: Connection, service: Service, player_id: str
) -> tuple[OperatorPlayer, str, WalletEndpoint | None] | None:
    """Whose player ``player_id`` is, the operator's name, and its wallet (``None`` while the
    operator is disabled); ``None`` for a player of our own."""
    seat = player_operator(c, player_id)
    if seat is None:
        return None
    operator = find_operator(c, seat.operator_id)
    name = seat.operator_id if operator is None else operator.name
    return seat, name, operator_endpoint(c, service.vault, seat.operator_id)


async def _wallet_balance(
    service: Service, seat: OperatorPlayer, endpoint: WalletEndpoint | None
) -> int | Refusal:
    """The player's balance at the operator's wallet, or ``wallet_unavailable`` (no definite
    answer, a disabled operator) or ``wallet_refused`` (the wallet's definite no)."""
    if endpoint is None:
        return Refusal(_C.WALLET_UNAVAILABLE, "the operator's wallet is not open to this server")
    outcome = await service.wallet.balance(endpoint, seat.external_id, seat.currency)
    if isinstance(outcome, Ok):
        return outcome.balance
    if isinstance(outcome, Unknown):
        return Refusal(_C.WALLET_UNAVAILABLE, "the operator's wallet did not answer; try again")
    return Refusal(_C.WALLET_REFUSED, outcome.message or outcome.code, kind=outcome.code)


async def operator_me(service: Service, player_id: str) -> Me | Refusal | None:
    """``GET /api/me`` of an operator's player: the balance at its operator's wallet and the
    operator's name; ``None`` for a player of our own (a guest, a login)."""
    found = await service.runner.read(lambda c: _seat(c, service, player_id))
    if found is None:
        return None
    seat, name, endpoint = found
    balance = await _wallet_balance(service, seat, endpoint)
    if isinstance(balance, Refusal):
        return balance
    return Me(id=player_id, balance=balance, demo=False, operator=name)

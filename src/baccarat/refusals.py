"""Why a request is refused: the one catalogue of refusal codes, and the refusal itself.

Every refusal is a ``Refusal``: of the game, the bet path, the responsible-gaming policy,
the cashier, the accounts, the staff's desks, and of a request the HTTP layer cannot take. It
holds a stable ``RefusalCode`` (what the API puts in its error body: the API answers no other
code, and the server maps each one to one HTTP status), a message for people and, where it
has them, which limit, which bound or until when. A refusal changes nothing: whoever refuses
has written nothing.

>>> from datetime import UTC, datetime
>>> Refusal(RefusalCode.BETTING_CLOSED, "betting on round 7 is closed").to_json()
{'code': 'betting_closed', 'message': 'betting on round 7 is closed'}
>>> r = Refusal(RefusalCode.TIME_OUT, "time-out", until=datetime(2024, 6, 1, tzinfo=UTC))
>>> r.to_json()
{'code': 'time_out', 'message': 'time-out', 'until': '2024-06-01T00:00:00+00:00'}
>>> str(Refusal(RefusalCode.LIMIT_EXCEEDED, "loss limit (7 days) reached: 0.00 left of 1.00"))
'limit_exceeded: loss limit (7 days) reached: 0.00 left of 1.00'
>>> RefusalCode("no_previous_bets") is RefusalCode.NOTHING_TO_REPEAT
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

__all__ = ["RESPONSIBLE_GAMING", "Refusal", "RefusalCode"]


class RefusalCode(StrEnum):
    """The stable codes of every refusal: the ``code`` of every error body the API answers.

    No other code is ever answered; the server maps each one to one HTTP status.
    """

    # A bet request checked against the table's rules and the balance (``table.betting``).
    EMPTY = "empty_bet"
    UNKNOWN_BET = "unknown_bet"
    NOT_OFFERED = "bet_not_offered"
    BAD_STAKE = "invalid_stake"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    #: A rebet or double with no bets in an earlier round at the table.
    NOTHING_TO_REPEAT = "no_previous_bets"
    #: An undo of the last bet with no bet of the player's on the round.
    NOTHING_TO_UNDO = "nothing_to_undo"
    #: The round is not open for bets, or is not a round of this table.
    BETTING_CLOSED = "betting_closed"
    #: The request's Idempotency-Key came before with another request.
    KEY_REUSED = "idempotency_key_reused"

    # Who is asking: a player's or a member of staff's token, and logging in.
    #: No token, or a token that opens nothing (unknown, expired or ended). A bet's session is
    #: checked again in the bet's transaction, and one that ended meanwhile is refused alike.
    UNAUTHORIZED = "unauthorized"
    #: A wrong username or password (a player's or a member of staff's).
    BAD_CREDENTIALS = "bad_credentials"
    #: A username or password that registration (or a new member of staff) does not accept.
    INVALID_ACCOUNT = "invalid_account"
    USERNAME_TAKEN = "username_taken"
    #: A new guest while the operator has turned guests off.
    GUESTS_DISABLED = "guests_disabled"
    #: A new guest asked for from a device whose last seat (a guest or a login) an operator
    #: locked or closed (its seat device token names it), until an operator unlocks it.
    DEVICE_LOCKED = "device_locked"
    #: A logout of a session that has ended already.
    NOT_A_SESSION = "not_a_session"

    # The responsible-gaming policy (``baccarat.responsible``), on bets and deposits.
    LIMIT_EXCEEDED = "limit_exceeded"
    TIME_OUT = "time_out"
    SELF_EXCLUDED = "self_excluded"
    SESSION_LIMIT = "session_limit"
    REALITY_CHECK_DUE = "reality_check_due"

    # A player's own controls: limits, breaks, the session's settings, the reality check.
    #: A limit change the policy does not allow (``responsible.limits``).
    INVALID_LIMIT = "invalid_limit"
    #: A break the policy does not allow: a length not offered, or a shorter one.
    INVALID_BREAK = "invalid_break"
    INVALID_SESSION_SETTINGS = "invalid_session_settings"
    #: An acknowledgement with no running session (so no reality check to acknowledge).
    NO_REALITY_CHECK = "no_reality_check"
    #: A player's own limit above what the operator set for it.
    ABOVE_OPERATOR_LIMIT = "above_operator_limit"

    # The cashier (``store.cashier``): the operator's bounds (``store.money``) and the balance.
    INVALID_AMOUNT = "invalid_amount"
    DEPOSIT_TOO_LARGE = "deposit_too_large"
    BALANCE_LIMIT = "balance_limit"
    INSUFFICIENT_BALANCE = "insufficient_balance"
    #: A guest's demo money at the cashier: it can be neither deposited to nor withdrawn.
    DEMO_ACCOUNT = "demo_account"

    # What a request names and the server does not hold.
    TABLE_NOT_FOUND = "table_not_found"
    ROUND_NOT_FOUND = "round_not_found"
    SHOE_NOT_FOUND = "shoe_not_found"
    RULESET_NOT_FOUND = "ruleset_not_found"
    PLAYER_NOT_FOUND = "player_not_found"
    STAFF_NOT_FOUND = "staff_not_found"
    SHIFT_NOT_FOUND = "shift_not_found"
    #: An operator (provider mode) the server does not know.
    OPERATOR_NOT_FOUND = "operator_not_found"
    #: A credit or rollback of an operator's wallet that is not there (the back office).
    WALLET_CALL_NOT_FOUND = "wallet_call_not_found"

    # Shoes and their records.
    #: A shoe's record asked for before the shoe has ended.
    SHOE_IN_PLAY = "shoe_in_play"
    #: A player's seed sent once the shoe's first betting window has closed.
    CLIENT_SEED_FIXED = "client_seed_fixed"

    # Staff and what they set (the admin API, ``docs/admin.md``).
    #: A player's token on an admin route (staff log in on their own routes).
    STAFF_ONLY = "staff_only"
    #: A member of staff whose role does not allow the action.
    ROLE_FORBIDDEN = "role_forbidden"
    #: A round settled or voided already: it cannot be voided.
    ROUND_FINISHED = "round_finished"
    #: A round whose cards are drawn: it settles by them (its coup is part of the shoe record).
    ROUND_DEALT = "round_dealt"
    #: A login or an unlock of an account an operator locked or closed.
    ACCOUNT_LOCKED = "account_locked"
    ACCOUNT_CLOSED = "account_closed"
    #: A lock of an account locked already, an unlock of one not locked, any change of a
    #: closed one (a closure is for good).
    PLAYER_LOCKED = "player_locked"
    PLAYER_ACTIVE = "player_active"
    PLAYER_CLOSED = "player_closed"
    #: The removal of an operator limit that is not set.
    NO_OPERATOR_LIMIT = "no_operator_limit"
    #: A member of staff disabling themselves, or one disabled already.
    OWN_ACCOUNT = "own_account"
    STAFF_DISABLED = "staff_disabled"
    #: A bet's limits with its minimum above its maximum.
    INVALID_LIMITS = "invalid_limits"
    #: An anchor asked of an audit log with no record yet.
    AUDIT_LOG_EMPTY = "audit_log_empty"
    #: A shift opened while another is open (one at a time), or one handed over already.
    SHIFT_OPEN = "shift_open"
    SHIFT_CLOSED = "shift_closed"
    #: A credit or rollback sent again by staff that has not failed (queued or done).
    OUTBOX_NOT_FAILED = "outbox_not_failed"

    # Studio tables (``docs/studio.md``).
    #: A studio route on a table the server deals itself.
    NOT_A_STUDIO = "not_a_studio"
    #: A card read while no studio shoe is in play: the dealer starts one first.
    NO_SHOE = "no_shoe"
    #: The table stopped on an impossible card: a supervisor resolves it first.
    TABLE_HALTED = "table_halted"
    #: A card typed by hand waits for a supervisor: no card counts before it.
    MISSCAN_PENDING = "misscan_pending"
    #: A studio step the table is not at (close with no round open, confirm with none waiting).
    NOT_NOW = "not_now"
    #: A device token on another table's route.
    DEVICE_FORBIDDEN = "device_forbidden"

    # Provider mode: an operator's wallet holds the player's money (``server.provider_bets``).
    #: The operator's wallet definitely refused the stake (nothing moved); ``kind`` in the
    #: details is the wallet's own code (``insufficient_funds``, ``player_blocked`` ...).
    WALLET_REFUSED = "wallet_refused"
    #: The operator's wallet gave no definite answer in time: no bet was placed, any money it
    #: took is rolled back; try again.
    WALLET_UNAVAILABLE = "wallet_unavailable"
    #: An operator's request that does not verify: its headers, an unknown or disabled
    #: operator, a timestamp outside the replay window, a wrong signature
    #: (``server.actions.launches``).
    INVALID_SIGNATURE = "invalid_signature"
    #: An operator's signed request received once already (the same signature).
    REPLAYED_REQUEST = "replayed_request"
    #: A launch link's token never issued or past its time.
    LAUNCH_EXPIRED = "launch_expired"
    #: A launch link's token traded for a session already: it works once.
    LAUNCH_USED = "launch_used"
    #: The cashier asked of an operator's player: the operator holds their money.
    OPERATOR_PLAYER = "operator_player"

    # The squeeze at a face-down table (``baccarat.table.squeeze``).
    #: A peel or a turn of a card that someone else (or the dealer) squeezes.
    NOT_YOUR_SQUEEZE = "not_your_squeeze"

    # The service itself.
    #: A table whose state this node has not got yet (just started, or the table just moved).
    TABLE_STARTING = "table_starting"
    #: A node some of whose tables have no state yet (its health check).
    STARTING = "starting"
    #: The database failed the request: nothing was changed, try again.
    DATABASE_UNAVAILABLE = "database_unavailable"

    # The request itself, refused before any route looks at it.
    #: A body, parameter or header that is not what the route takes.
    INVALID_REQUEST = "invalid_request"
    #: A request the HTTP layer cannot read otherwise (never a body: that is invalid_request).
    BAD_REQUEST = "bad_request"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    #: Too many logins, registrations, guests or tickets from one client; retry later.
    RATE_LIMITED = "rate_limited"


#: The codes the responsible-gaming policy refuses with.
RESPONSIBLE_GAMING: frozenset[RefusalCode] = frozenset(
    {
        RefusalCode.LIMIT_EXCEEDED,
        RefusalCode.TIME_OUT,
        RefusalCode.SELF_EXCLUDED,
        RefusalCode.SESSION_LIMIT,
        RefusalCode.REALITY_CHECK_DUE,
    }
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused request. The optional fields say which limit, or until when.

    >>> Refusal(RefusalCode.NOTHING_TO_UNDO, "no bet to take back").code == "nothing_to_undo"
    True
    >>> Refusal("made_up", "a code of no catalogue")
    Traceback (most recent call last):
    ...
    ValueError: 'made_up' is not a valid RefusalCode
    """

    code: RefusalCode
    message: str
    #: When the refusal stops applying by itself (a break's end), if it does.
    until: datetime | None = None
    #: For ``limit_exceeded``: the binding limit's kind and period, its amount and what is left.
    #: For ``wallet_refused``: ``kind`` is the wallet's code.
    #: For the table's and the cashier's bounds, ``limit`` is the bound (minor units).
    kind: str | None = None
    period: str | None = None
    limit: int | None = None
    left: int | None = None
    #: For ``below_minimum`` / ``above_maximum``: the spot whose bound the bet breaks.
    spot: str | None = None

    def __post_init__(self) -> None:
        # A code outside the catalogue is a bug: refuse it where it is made, not on the wire.
        object.__setattr__(self, "code", RefusalCode(self.code))

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The refusal as the API's error body: ``code``, ``message`` and the fields that are set.

        >>> Refusal(RefusalCode.LIMIT_EXCEEDED, "wager limit", kind="wager", left=0).to_json()
        {'code': 'limit_exceeded', 'message': 'wager limit', 'kind': 'wager', 'left': 0}
        """
        body: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.until is not None:
            body["until"] = self.until.isoformat()
        for name in ("kind", "period", "limit", "left", "spot"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        return body

    def details(self) -> dict[str, object]:
        """The values of the refusal that are set (the API's ``details``): ``until`` in ISO 8601
        UTC with milliseconds and a ``Z``, money in minor units.

        >>> Refusal(RefusalCode.BELOW_MINIMUM, "too little", spot="tie", limit=100).details()
        {'limit': 100, 'spot': 'tie'}
        >>> Refusal(RefusalCode.TIME_OUT, "t", until=datetime(2024, 6, 1, tzinfo=UTC)).details()
        {'until': '2024-06-01T00:00:00.000Z'}
        """
        found: dict[str, object] = {}
        if self.until is not None:
            moment = self.until.astimezone(UTC)
            ms = moment.microsecond // 1000
            found["until"] = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms:03d}Z"
        for name in ("kind", "period", "limit", "left", "spot"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value
        return found

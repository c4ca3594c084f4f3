"""What a player does besides betting, one module per concern, each owning its transactions:
``accounts`` (register, log in, log out), ``controls`` (limits, breaks, session settings,
the reality check), ``cashier`` (deposits and withdrawals), ``reality_checks`` (pushing a
due check to a player's feeds), ``launches`` (an operator's signed launch of its player, and
the trade of the launch link for a session).

Each is built once by the app factory with what it needs, the server's clock passed in
explicitly; the routers parse a request, call one of them and answer with what it returns.
An action knows nothing of HTTP: it returns its result or a ``Refusal`` (``baccarat.refusals``:
the policy's, a reused key, a name taken, a thing not found...), having written nothing for a
refusal; the router answers it with its code's status (``errors.answer``).
"""

from __future__ import annotations

from baccarat.server.actions.accounts import Accounts
from baccarat.server.actions.cashier import Cashier
from baccarat.server.actions.controls import PlayerControls

__all__ = ["Accounts", "Cashier", "PlayerControls"]

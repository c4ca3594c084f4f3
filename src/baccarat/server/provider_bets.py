"""The bet path of an operator's player: the operator's wallet pays the stake (provider mode).

``bet_service`` sends a place, rebet or double of an operator's player here (who is one is read
once per player, then remembered: it never changes). ``ProviderBets.submit``:

1. ``store.provider_placement.prepare``, one transaction: the session, the Idempotency-Key,
   the placement dry-run with every check of ``store.placement``, the debit written
   ``pending`` and committed;
2. the wallet's ``debit``, within the betting window: the timeout is the operator's or the
   time left, whichever is shorter (``WalletClient``: a slow wallet holds only its own
   operator's slots, and is awaited off the writer thread);
3. ``record_answer``, one transaction: a yes places the bets (the receipt's balance is the
   wallet's), a definite no is ``wallet_refused`` (402 for the wallet's
   ``insufficient_funds``, else 403), no definite answer is ``wallet_unavailable`` (503) with
   the debit's rollback queued.

Steps 2 and 3 are shielded from the request's cancellation; a crash between them leaves the
debit ``pending``, and the outbox sender's sweep rolls it back. An operator unknown or disabled
refuses the stake before anything is written; a disabled operator's credits and rollbacks are
still sent (``payout_endpoint``, the outbox sender's).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.auth import TokenBook
from baccarat.server.store_threads import StoreRunner
from baccarat.store.operators import (
    OperatorPlayer,
    operator_endpoint,
    payout_endpoint,
    player_operator,
)
from baccarat.store.provider_placement import Gate, Prepared, prepare, record_answer
from baccarat.store.seal import SeedVault
from baccarat.store.shoe_rules import ShoeRules
from baccarat.table import BetOrder, BetReceipt
from baccarat.wallet.client import WalletClient, WalletEndpoint
from baccarat.wallet.contract import Ok, Refused, debit_body

__all__ = ["PLACING", "ProviderBets"]

#: The orders that take money: the rest (undo, undo_last) go through the bet queue, and
#: their credit is queued in its batch (``store.provider_settle``).
PLACING = frozenset({"place", "rebet", "double"})
_DISABLED = Refusal(
    RefusalCode.WALLET_REFUSED, "your casino is not taking bets here now", kind="operator_disabled"
)
#: Players whose operator is remembered before the oldest are forgotten (read again).
_KEPT = 100_000


class ProviderBets:
    """The provider bet path of one service: who is an operator's player (remembered: it never
    changes), each operator's endpoint (read again after ``endpoint_ttl_s``), and the calls."""

    def __init__(
        self,
        runner: StoreRunner,
        tokens: TokenBook,
        wallet: WalletClient,
        vault: SeedVault,
        *,
        endpoint_ttl_s: float = 5.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.runner = runner
        self.tokens = tokens
        self.wallet = wallet
        self.vault = vault
        self.endpoint_ttl_s = endpoint_ttl_s
        self._monotonic = monotonic
        self._operators: dict[str, OperatorPlayer | None] = {}
        self._endpoints: dict[str, tuple[float, WalletEndpoint | None]] = {}
        self._payouts: dict[str, tuple[float, WalletEndpoint | None]] = {}
        #: The rule set of each shoe; used only in the writer thread (one transaction at a time).
        self._rules = ShoeRules()

    async def operator_of(self, player_id: str) -> OperatorPlayer | None:
        """Whose player ``player_id`` is (``None``: one of ours), read once."""
        if player_id in self._operators:
            return self._operators[player_id]
        found = await self.runner.read(partial(player_operator, player_id=player_id))
        if len(self._operators) >= _KEPT:
            self._operators.clear()
        self._operators[player_id] = found
        return found

    async def endpoint(self, operator_id: str) -> WalletEndpoint | None:
        """The operator's wallet endpoint for a stake (``None``: unknown or disabled), kept a
        few seconds."""
        return await self._kept(self._endpoints, operator_endpoint, operator_id)

    async def payout_endpoint(self, operator_id: str) -> WalletEndpoint | None:
        """Where the operator's credits and rollbacks go (``None``: unknown), disabled or not:
        disabling stops the stakes, never the money owed. Kept a few seconds."""
        return await self._kept(self._payouts, payout_endpoint, operator_id)

    async def _kept(
        self,
        kept: dict[str, tuple[float, WalletEndpoint | None]],
        read: Callable[..., WalletEndpoint | None],
        operator_id: str,
    ) -> WalletEndpoint | None:
        now = self._monotonic()
        found = kept.get(operator_id)
        if found is not None and now - found[0] < self.endpoint_ttl_s:
            return found[1]
        endpoint = await self.runner.read(partial(read, vault=self.vault, operator_id=operator_id))
        kept[operator_id] = (now, endpoint)
        return endpoint

    def _gate(self) -> Gate:
        book = self.tokens
        now = book.now_ms()
        return Gate(now, book.idle_ms, book.touch_ms, policy_now_ms=now)

    async def submit(self, order: BetOrder, operator: OperatorPlayer) -> BetReceipt | Refusal:
        """Debit the operator's wallet for the order and place it; its receipt or refusal."""
        endpoint = await self.endpoint(operator.operator_id)
        if endpoint is None:
            return _DISABLED
        gate = self._gate()
        prepared = await self.runner.write(
            partial(prepare, order=order, operator=operator, gate=gate, rules=self._rules)
        )
        if not isinstance(prepared, Prepared):
            return prepared
        # Once the debit is sent, its answer is recorded whatever becomes of the request.
        return await asyncio.shield(self._debit(order, operator, endpoint, prepared, gate))

    async def _debit(
        self,
        order: BetOrder,
        operator: OperatorPlayer,
        endpoint: WalletEndpoint,
        prepared: Prepared,
        gate: Gate,
    ) -> BetReceipt | Refusal:
        debit = prepared.debit
        assert debit.round_id is not None and debit.table_id is not None
        body = debit_body(
            transaction_id=debit.id,
            player_id=operator.external_id,
            round_id=debit.round_id,
            table_id=debit.table_id,
            amount=debit.amount,
            currency=debit.currency,
        )
        timeout_s = min(endpoint.timeout_s, prepared.left_ms / 1000)
        outcome = await self.wallet.call(endpoint, "debit", body, timeout_s=timeout_s)
        answer: Ok | Refused | str = (
            outcome if isinstance(outcome, Ok | Refused) else outcome.reason
        )
        return await self.runner.write(
            partial(
                record_answer,
                order=order,
                debit=debit,
                outcome=answer,
                gate=gate,
                rules=self._rules,
            )
        )

// @ts-check
// The player's side of a round: place, undo, clear, rebet and double. Requests go one at a
// time, in the order the player made them; a stake shows only once the server accepted it.
// With the confirm step on (a choice kept on this device), chips are only laid on the spots
// (pending, known to this page alone) until Confirm sends them as one request; Clear drops
// them, and so does the end of the betting window.

import { api } from "./api.js";
import { account } from "./account.js";
import { announce } from "./dom.js";
import { betName, money } from "./format.js";
import { t } from "./i18n.js";

/**
 * The state of the table this module reads and writes: the round, the player's stakes on it,
 * and what each accepted request added.
 * @typedef {object} BetState
 * @property {import("./model.js").Round | null} round
 * @property {Record<string, number>} stakes
 * @property {Record<string, number>[]} placements
 * @property {Record<string, number>} [pending]  chips laid but not confirmed (the confirm step)
 */

const CONFIRM_KEY = "baccarat.confirm_bets";

/**
 * Whether the confirm step is on for this device (off unless chosen).
 * @returns {boolean}
 */
export function confirmStep() {
  try {
    return window.localStorage.getItem(CONFIRM_KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function rememberConfirmStep(on) {
  try {
    window.localStorage.setItem(CONFIRM_KEY, on ? "on" : "off");
  } catch {
    // A browser that keeps nothing: the choice lasts as long as the page.
  }
}

/**
 * @param {Record<string, number>} stakes
 * @returns {number}
 */
function sum(stakes) {
  return Object.values(stakes).reduce((a, b) => a + b, 0);
}

/**
 * @param {string} tableId
 * @param {BetState} state  the table's state: round, stakes and placements are read and written
 * @param {{changed: () => void, say: (text: string, tone: string) => void, refused: (error: any) => void,
 *   chip?: () => void}} tell  how to show the outcome (chip: a chip went down, for the sound)
 */
export function betting(tableId, state, tell) {
  let queue = Promise.resolve();
  let confirming = confirmStep();
  state.pending = {};
  /** The round the pending chips were laid for. */
  /** @type {number | undefined} */
  let pendingRound;
  let sending = false;

  /**
   * Queue a request behind those already sent, for the round open now.
   * @param {(roundId: number) => Promise<void>} request
   */
  function send(request) {
    if (!account.playing) {
      tell.say(t("bet.watching"), "info");
      return queue;
    }
    const roundId = state.round?.id;
    if (!roundId) {
      tell.say(t("bet.wait_round"), "info");
      return queue;
    }
    queue = queue.then(() => request(roundId)).catch(tell.refused);
    return queue;
  }

  /**
   * @param {any} response  the server's answer to a bet request
   * @param {number} [mark]  `account.mark` when an undo was sent: its balance is, for an
   *   operator's player, an estimate that a wallet's answer told meanwhile replaces
   */
  function accept(response, mark) {
    if (response.round_id !== state.round?.id) return;
    state.stakes = { ...response.bets };
    if (mark === undefined) account.setBalance(response.balance);
    else account.setBalanceSince(response.balance, mark);
    tell.changed();
  }

  /** @param {any} response */
  function placed(response) {
    state.placements.push(response.accepted);
    accept(response);
  }

  /** @returns {Record<string, number>} */
  const pending = () => state.pending ?? {};

  /** Drop the pending chips (nothing was sent); whether there were any. */
  function drop() {
    const had = sum(pending()) > 0;
    state.pending = {};
    pendingRound = undefined;
    return had;
  }

  return {
    /**
     * Put one chip of `chip` minor units on spot `name` (with the confirm step: lay it, pending).
     * @param {string} name
     * @param {number | null} chip
     */
    bet(name, chip) {
      if (!chip) return;
      if (confirming) {
        if (!account.playing) tell.say(t("bet.watching"), "info");
        else if (!state.round?.id || state.round.phase !== "open") tell.say(t("bet.wait_round"), "info");
        else {
          if (pendingRound !== state.round.id) drop();
          pendingRound = state.round.id;
          const laid = pending();
          state.pending = { ...laid, [name]: (laid[name] ?? 0) + chip };
          tell.chip?.();
          tell.changed();
          announce(t("confirm.laid", { bet: betName(name), amount: money(state.pending[name]) }));
        }
        return;
      }
      send(async (roundId) => {
        const response = await api.placeBets(tableId, roundId, { [name]: chip });
        placed(response);
        tell.chip?.();
        announce(
          t("bet.placed", { bet: betName(name), amount: money(response.bets[name]), balance: money(response.balance) }),
        );
      });
    },
    /**
     * Rebet or double: the previous round's bets again (`call` is api.rebet or api.double).
     * @param {(tableId: string, roundId: number) => Promise<any>} call
     */
    repeat(call) {
      send(async (roundId) => {
        const response = await call(tableId, roundId);
        placed(response);
        announce(t("bet.placed_all", { amount: money(sum(response.bets)) }));
      });
    },
    clear() {
      send(async (roundId) => {
        if (!sum(state.stakes)) return;
        const mark = account.mark;
        accept(await api.undo(tableId, roundId), mark);
        state.placements = [];
        announce(t("bet.cleared"));
      });
    },
    /** Whether the confirm step is on. */
    confirming: () => confirming,
    /**
     * Turn the confirm step on or off (remembered on this device); chips laid are dropped.
     * @param {boolean} on
     */
    setConfirming(on) {
      confirming = on;
      rememberConfirmStep(on);
      if (drop()) announce(t("confirm.cleared"));
      tell.changed();
    },
    /** Send the pending chips as one request; on a refusal they stay laid, and it is said. */
    confirm() {
      if (!sum(pending()) || sending) return;
      send(async (roundId) => {
        // Read when its turn comes: a second press queued behind a first that was accepted
        // finds nothing left to send.
        const bets = { ...pending() };
        if (roundId !== pendingRound || !sum(bets)) return;
        sending = true;
        tell.changed();
        try {
          const response = await api.placeBets(tableId, roundId, bets);
          drop();
          placed(response);
          tell.chip?.();
          announce(t("bet.placed_all", { amount: money(sum(response.bets)) }));
        } finally {
          sending = false;
          tell.changed();
        }
      });
    },
    /** Whether Confirm is on its way to the server. */
    sending: () => sending,
    /** Drop the pending chips (Clear of the confirm step). */
    discard() {
      if (drop()) announce(t("confirm.cleared"));
      tell.changed();
    },
    /**
     * Keep pending chips only while their round takes bets: true when the window closed (or a
     * new round came) and they were dropped, which the caller says.
     */
    expire() {
      if (pendingRound === undefined) return false;
      // Left the seat: nothing to say about the window.
      if (!account.playing) {
        drop();
        return false;
      }
      if (state.round?.id === pendingRound && state.round?.phase === "open") return false;
      return drop();
    },
    /** Take back the last accepted request only (one atomic request to the server). */
    undo() {
      send(async (roundId) => {
        if (!sum(state.stakes)) return;
        const mark = account.mark;
        const response = await api.undoLast(tableId, roundId);
        state.placements.pop();
        accept(response, mark);
        announce(t("bet.undone", { amount: money(response.returned), balance: money(response.balance) }));
      });
    },
  };
}

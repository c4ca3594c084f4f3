// @ts-check
// The player's side of a round: place, undo, clear, rebet and double. Requests go one at a
// time, in the order the player made them; a stake shows only once the server accepted it.

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
 */

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
 * @param {{changed: () => void, say: (text: string, tone: string) => void, refused: (error: any) => void}} tell
 *   how to show the outcome
 */
export function betting(tableId, state, tell) {
  let queue = Promise.resolve();

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

  /** @param {any} response  the server's answer to a bet request */
  function accept(response) {
    if (response.round_id !== state.round?.id) return;
    state.stakes = { ...response.bets };
    account.setBalance(response.balance);
    tell.changed();
  }

  /** @param {any} response */
  function placed(response) {
    state.placements.push(response.accepted);
    accept(response);
  }

  return {
    /**
     * Put one chip of `chip` minor units on spot `name`.
     * @param {string} name
     * @param {number | null} chip
     */
    bet(name, chip) {
      if (!chip) return;
      send(async (roundId) => {
        const response = await api.placeBets(tableId, roundId, { [name]: chip });
        placed(response);
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
        accept(await api.undo(tableId, roundId));
        state.placements = [];
        announce(t("bet.cleared"));
      });
    },
    /** Take back the last accepted request only (one atomic request to the server). */
    undo() {
      send(async (roundId) => {
        if (!sum(state.stakes)) return;
        const response = await api.undoLast(tableId, roundId);
        state.placements.pop();
        accept(response);
        announce(t("bet.undone", { amount: money(response.returned), balance: money(response.balance) }));
      });
    },
  };
}

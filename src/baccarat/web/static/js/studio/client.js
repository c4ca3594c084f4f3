// @ts-check
// The studio console's API (/api/studio/tables/{t}, docs/studio.md), through the back office's
// one request function and staff token (admin/client.js): a dealer, an operator or an admin
// logs in there with POST /api/admin/login. Every error is an ApiError with the server's code
// and message.

import { call, enc } from "../admin/client.js";

/** @param {string} table */
const base = (table) => `/api/studio/tables/${enc(table)}`;

/**
 * A new shoe's shuffle certificate, as the dealer gives it.
 * @typedef {{shuffled_by: string, decks: number, deck_serials: string[], cut_card: number}} Certificate
 */

/** Every call the console makes; each resolves to the server's JSON answer. */
export const studioApi = {
  // Every table with its settings (public: no token); the studio ones have mode "studio".
  tables: () => call("GET", "/api/tables", { auth: false }),
  /** @param {string} table */
  view: (table) => call("GET", base(table)),
  /**
   * A card read at the console: `scan_id` is new for each read and the same for a retry.
   * @param {string} table
   * @param {string} card
   * @param {string} scanId
   */
  read: (table, card, scanId) => call("POST", `${base(table)}/cards`, { body: { card, scan_id: scanId } }),
  /** @param {string} table */
  take: (table) => call("POST", `${base(table)}/dealer`),
  /** @param {string} table */
  close: (table) => call("POST", `${base(table)}/close`),
  /**
   * @param {string} table
   * @param {Certificate} certificate
   */
  shoe: (table, certificate) => call("POST", `${base(table)}/shoe`, { body: certificate }),
  /**
   * @param {string} table
   * @param {string} card
   * @param {string} reason
   */
  misscan: (table, card, reason) => call("POST", `${base(table)}/misscan`, { body: { card, reason } }),
  /**
   * A dealer's action that needs only a reason: misdeal, pause, resume, and a supervisor's
   * decisions misscan/confirm, misscan/reject, halt/discard, halt/void.
   * @param {string} table
   * @param {"misdeal" | "pause" | "resume" | "misscan/confirm" | "misscan/reject" | "halt/discard" | "halt/void"} action
   * @param {string} reason
   */
  withReason: (table, action, reason) => call("POST", `${base(table)}/${action}`, { body: { reason } }),
};

// @ts-check
// The public HTTP API, and nothing else. Every error becomes an ApiError with the server's
// code, message and the refusal's values ({"error": {"code", "message", "details"}}), or
// "network" when there is no answer.

import { breakEndOf, breakMemo } from "./breakmemo.js";
import { session } from "./session.js";
import { deviceToken, keepDeviceToken } from "./devices.js";

/**
 * A refusal's values, only those it has (money in minor units, `until` ISO 8601 UTC).
 * @typedef {{until?: string, kind?: string, period?: string, limit?: number, left?: number, spot?: string}} RefusalDetails
 */

/** A refused or failed request: the HTTP status (0 without an answer) and the server's code. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {RefusalDetails | null} [details]  the error body's `details`, when it has them
   */
  constructor(status, code, message, details = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details && typeof details === "object" ? details : null;
  }
}

/** @param {string | number} part */
function enc(part) {
  return encodeURIComponent(String(part));
}

/**
 * A fresh Idempotency-Key. getRandomValues works on plain http, unlike randomUUID.
 * @returns {string}
 */
export function newKey() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One request; the parsed JSON answer, or an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, headers?: Record<string, string>, auth?: boolean}} [options]
 * @returns {Promise<any>}
 */
async function request(method, path, { body, headers = {}, auth = true } = {}) {
  /** @type {Record<string, string>} */
  const sent = { Accept: "application/json", ...headers };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const token = session.token;
  if (auth && token) sent.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "network", "The table server cannot be reached.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error ?? {};
    const detail = typeof data?.detail === "string" ? data.detail : response.statusText;
    const refused = new ApiError(
      response.status,
      error.code ?? `http_${response.status}`,
      error.message ?? detail,
      error.details ?? null,
    );
    // A break met here (a login, a bet, a deposit refused for it): no demo play until it ends.
    const end = breakEndOf({ ...error, code: refused.code, message: refused.message, details: refused.details });
    if (end !== null) breakMemo.remember(end);
    // The seat's token refused (its session ended: a logout elsewhere, its lifetime, an operator's
    // lock), or a new guest refused on this browser: auth.js (watchLockout) says why.
    if (response.status === 401 && sent.Authorization) {
      window.dispatchEvent(new CustomEvent("baccarat:token-refused", { detail: { token } }));
    }
    if (refused.code === "device_locked") window.dispatchEvent(new CustomEvent("baccarat:device-locked"));
    throw refused;
  }
  return data;
}

/**
 * @param {string} tableId
 * @param {string} suffix
 * @param {string} method
 * @param {unknown} body
 */
function betting(tableId, suffix, method, body) {
  return request(method, `/api/tables/${enc(tableId)}/bets${suffix}`, {
    body,
    headers: { "Idempotency-Key": newKey() },
  });
}

/** @type {Promise<any> | null} */
let configAnswer = null;

/** Every call of the API, by what it does; each returns the server's JSON answer. */
export const api = {
  // With the seat device token of this browser's last seat, if it has one (session.js).
  createGuest: () => {
    const seat = session.seatDevice;
    return request("POST", "/api/players", { body: seat ? { seat_device: seat } : {}, auth: false });
  },
  // Whether the account of this browser's last seat was locked or closed (why its token stopped).
  seatStatus: (seatDevice) =>
    request("POST", "/api/players/seat-status", { body: { seat_device: seatDevice }, auth: false }),
  // The server's configuration does not change while it runs: asked once per page.
  config: () => {
    configAnswer ??= request("GET", "/api/config", { auth: false }).catch((error) => {
      configAnswer = null;
      throw error;
    });
    return configAnswer;
  },
  me: () => request("GET", "/api/me"),
  // An operator's launch link's token traded (once) for a session: launch.js.
  launch: (/** @type {string} */ token) => request("POST", "/api/launch", { body: { token }, auth: false }),
  tables: () => request("GET", "/api/tables"),
  table: (tableId) => request("GET", `/api/tables/${enc(tableId)}`),
  placeBets: (tableId, roundId, bets) => betting(tableId, "", "POST", { round_id: roundId, bets }),
  // Every bet of the caller on the round, or (undoLast) only the last accepted request.
  // Like bets and the cashier, each carries an Idempotency-Key: a resent request (the same
  // key) gets the first answer and never takes back a second chip.
  undo: (tableId, roundId, key = newKey()) =>
    request("DELETE", `/api/tables/${enc(tableId)}/bets?round_id=${enc(roundId)}`, {
      headers: { "Idempotency-Key": key },
    }),
  undoLast: (tableId, roundId, key = newKey()) =>
    request("DELETE", `/api/tables/${enc(tableId)}/bets?round_id=${enc(roundId)}&last=true`, {
      headers: { "Idempotency-Key": key },
    }),
  rebet: (tableId, roundId) => betting(tableId, "/rebet", "POST", { round_id: roundId }),
  double: (tableId, roundId) => betting(tableId, "/double", "POST", { round_id: roundId }),
  round: (roundId) => request("GET", `/api/rounds/${enc(roundId)}`),
  shoe: (shoeId) => request("GET", `/api/shoes/${enc(shoeId)}`),
  shoeRecord: (shoeId) => request("GET", shoeRecordUrl(shoeId)),
  // Your part of a shoe's client seed, until its first betting window closes (409 after).
  sendSeed: (shoeId, seed) => request("POST", `/api/shoes/${enc(shoeId)}/seed`, { body: { seed } }),
  rules: (ruleset) => request("GET", `/api/rules/${enc(ruleset)}`, { auth: false }),
  // Accounts: registration, login (a session token that expires) and logout.
  register: (username, password) => request("POST", "/api/accounts", { body: { username, password }, auth: false }),
  // With this device's token of the username, if it has one (devices.js), and keeping the next.
  login: async (username, password) => {
    const device = deviceToken(username);
    const answer = await request("POST", "/api/sessions", { body: { username, password, device }, auth: false });
    keepDeviceToken(username, answer?.device);
    return answer;
  },
  // The token is named here: the page has already forgotten it (auth.js logout).
  logout: (/** @type {string} */ token) =>
    request("DELETE", "/api/sessions/current", { auth: false, headers: { Authorization: `Bearer ${token}` } }),
  // A single-use ticket for the table feed: the token itself never goes in a URL.
  wsTicket: () => request("POST", "/api/ws-tickets"),
  deposit: (amount, key = newKey()) =>
    request("POST", "/api/me/deposits", { body: { amount }, headers: { "Idempotency-Key": key } }),
  withdraw: (amount, key = newKey()) =>
    request("POST", "/api/me/withdrawals", { body: { amount }, headers: { "Idempotency-Key": key } }),
  // Responsible gaming: limits, breaks, the session clock and the reality check.
  limits: () => request("GET", "/api/me/limits"),
  setLimit: (kind, period, amount) => request("PUT", "/api/me/limits", { body: { kind, period, amount } }),
  confirmLimit: (kind, period) => request("POST", `/api/me/limits/${enc(kind)}/${enc(period)}/confirm`),
  cancelPending: (kind, period) => request("DELETE", `/api/me/limits/${enc(kind)}/${enc(period)}/pending`),
  breaks: () => request("GET", "/api/me/breaks"),
  takeBreak: (kind, until) => request("POST", "/api/me/breaks", { body: { kind, until } }),
  session: () => request("GET", "/api/me/session"),
  setSessionSettings: (settings) => request("PUT", "/api/me/session-settings", { body: settings }),
  acknowledge: () => request("POST", "/api/me/reality-check/ack"),
  history: (page = 1, perPage = 10) => request("GET", `/api/me/history?page=${enc(page)}&per_page=${enc(perPage)}`),
};

/**
 * The player's whole history as CSV (needs the token, so it is fetched, then saved).
 * @returns {Promise<string>}
 */
export async function historyCsv() {
  const response = await fetch("/api/me/history.csv", {
    headers: session.token ? { Authorization: `Bearer ${session.token}` } : {},
    cache: "no-store",
  });
  if (!response.ok) throw new ApiError(response.status, `http_${response.status}`, "The history cannot be exported.");
  return response.text();
}

/**
 * Where an ended shoe's bare record (what `baccarat verify` reads) can be downloaded.
 * @param {string} shoeId
 * @returns {string}
 */
export function shoeRecordUrl(shoeId) {
  return `/api/shoes/${enc(shoeId)}/record`;
}

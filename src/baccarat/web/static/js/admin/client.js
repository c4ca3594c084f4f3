// @ts-check
// The admin API (/api/admin, docs/admin.md) and the staff member's token. A staff token is kept
// in this tab only (sessionStorage): it opens the back office (and the dealer's console,
// studio/), never the player's page, and it goes when the tab closes. Every error becomes an
// ApiError with the server's code.

import { ApiError } from "../api.js";
import { deviceToken, keepDeviceToken } from "../devices.js";

const KEY = "baccarat.staff";

/** @typedef {{token: string, username: string, role: "operator" | "auditor" | "admin" | "dealer"}} Staff */

export const staff = {
  /** @returns {Staff | null} the member of staff logged in in this tab */
  get current() {
    try {
      const data = JSON.parse(window.sessionStorage.getItem(KEY) ?? "null");
      return data && typeof data.token === "string" ? data : null;
    } catch {
      return null;
    }
  },
  /** @param {Staff} who */
  save(who) {
    window.sessionStorage.setItem(KEY, JSON.stringify(who));
  },
  clear() {
    window.sessionStorage.removeItem(KEY);
  },
};

/**
 * Whether a role may act (open, pause, void, lock…): operators and admins; auditors read.
 * The server checks every request anyway.
 * @param {string | undefined} role
 * @returns {boolean}
 */
export function mayAct(role) {
  return role === "operator" || role === "admin";
}

/** @param {string | number} part */
export function enc(part) {
  return encodeURIComponent(String(part));
}

/**
 * A query string of the values given (empty and null ones left out): "?a=1&b=x".
 * @param {Record<string, string | number | null | undefined>} values
 * @returns {string}
 */
export function query(values) {
  const pairs = Object.entries(values).filter(([, v]) => v !== null && v !== undefined && v !== "");
  return pairs.length ? `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&")}` : "";
}

/**
 * One request: the answer (JSON, or text with `text`), or an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {{body?: unknown, text?: boolean, auth?: boolean}} [options]  auth: false sends no token
 * @returns {Promise<any>}
 */
export async function call(method, path, { body, text = false, auth = true } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: text ? "text/csv" : "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = auth ? staff.current?.token : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached.");
  }
  if (response.ok && text) return response.text();
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError(response.status, error.code ?? `http_${response.status}`, error.message ?? "", error.details);
  }
  return data;
}

/** Every admin call, by what it does; reads are open to every role, acts need a reason. */
export const adminApi = {
  config: () => call("GET", "/api/config"),
  login: async (username, password) => {
    const device = deviceToken(`staff:${username}`);
    const answer = await call("POST", "/api/admin/login", { body: { username, password, device } });
    keepDeviceToken(`staff:${username}`, answer?.device);
    return answer;
  },
  logout: () => call("POST", "/api/admin/logout"),
  me: () => call("GET", "/api/admin/me"),
  tables: () => call("GET", "/api/admin/tables"),
  // The players' view of a table (its bets and their limits now): public, so no staff token.
  publicTable: (id) => call("GET", `/api/tables/${enc(id)}`, { auth: false }),
  audience: (id) => call("GET", `/api/admin/tables/${enc(id)}/audience`),
  integrity: (id) => call("GET", `/api/admin/tables/${enc(id)}/integrity`),
  // action: open, pause or close
  setTable: (id, action, reason) => call("POST", `/api/admin/tables/${enc(id)}/${enc(action)}`, { body: { reason } }),
  nextShoe: (id, change) => call("PUT", `/api/admin/tables/${enc(id)}/next-shoe`, { body: change }),
  limits: (id, change) => call("PUT", `/api/admin/tables/${enc(id)}/limits`, { body: change }),
  rounds: (filters) => call("GET", `/api/admin/rounds${query(filters)}`),
  round: (id) => call("GET", `/api/admin/rounds/${enc(id)}`),
  voidRound: (id, reason) => call("POST", `/api/admin/rounds/${enc(id)}/void`, { body: { reason } }),
  players: (q) => call("GET", `/api/admin/players${query({ q, limit: 50 })}`),
  player: (id) => call("GET", `/api/admin/players/${enc(id)}`),
  history: (id, page = 1) => call("GET", `/api/admin/players/${enc(id)}/history${query({ page, per_page: 10 })}`),
  // action: lock, unlock or close
  setPlayer: (id, action, reason) => call("POST", `/api/admin/players/${enc(id)}/${enc(action)}`, { body: { reason } }),
  cap: (id, cap) => call("PUT", `/api/admin/players/${enc(id)}/operator-limits`, { body: cap }),
  shoes: (tableId) => call("GET", `/api/admin/shoes${query({ table_id: tableId, limit: 30 })}`),
  audit: (filters) => call("GET", `/api/admin/audit${query(filters)}`),
  auditCsv: (filters) => call("GET", `/api/admin/audit${query({ ...filters, format: "csv" })}`, { text: true }),
  verify: (anchor) => call("GET", `/api/admin/audit/verify${query({ anchor })}`),
  anchor: () => call("GET", "/api/admin/audit/anchor"),
  staff: () => call("GET", "/api/admin/staff"),
  createStaff: (member) => call("POST", "/api/admin/staff", { body: member }),
  disableStaff: (name, reason) => call("POST", `/api/admin/staff/${enc(name)}/disable`, { body: { reason } }),
  report: (filters) => call("GET", `/api/admin/reports${query(filters)}`),
  reportCsv: (filters) => call("GET", `/api/admin/reports${query({ ...filters, format: "csv" })}`, { text: true }),
};

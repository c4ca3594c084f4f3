// @ts-check
// A break this device has seen: a time-out or self-exclusion taken here, or one a login or a
// request here was refused for. While it runs the page offers no demo play (a person on a break
// must not simply click "Play as guest") and says when it ends.
//
// A guest is anonymous, so the server cannot tie one to a person on a break: this memory of the
// device is the control. It does not follow the person to another browser or a cleared storage.

import { formatDate, t } from "./i18n.js";

const KEY = "baccarat.break";
const BREAK_CODES = new Set(["time_out", "self_excluded"]);
// How the server's refusal messages write a break's end: "... until 2024-06-08 12:00:00 UTC: ...".
const UNTIL = /until (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) UTC/;

/** @returns {number | null} */
function stored() {
  try {
    const until = Number(JSON.parse(window.localStorage.getItem(KEY) ?? "null")?.until);
    return Number.isFinite(until) ? until : null;
  } catch {
    return null;
  }
}

/**
 * The end (ms since the epoch) a break refusal names, or null: the error body's
 * `details.until`, else an `until` field, else its message.
 * @param {{code?: string, message?: string, until?: string, details?: {until?: string} | null} | null | undefined} error
 * @returns {number | null}
 */
export function breakEndOf(error) {
  if (!BREAK_CODES.has(error?.code)) return null;
  const direct = Date.parse(error.details?.until ?? error.until ?? "");
  if (Number.isFinite(direct)) return direct;
  const match = UNTIL.exec(error.message ?? "");
  return match ? Date.parse(`${match[1]}T${match[2]}Z`) : null;
}

/**
 * A break's end in the person's own time zone, to the minute, in the language shown.
 * @param {number} ms
 * @returns {string}
 */
export function localTime(ms) {
  return formatDate(ms, { dateStyle: "medium", timeStyle: "short" });
}

export const breakMemo = {
  /**
   * The end (ms) of the break running on this device, or null. An ended break is forgotten.
   * @returns {number | null}
   */
  until(now = Date.now()) {
    const until = stored();
    if (until === null) return null;
    if (until > now) return until;
    window.localStorage.removeItem(KEY);
    return null;
  },
  /**
   * Remember a break ending at `end` (ms or an ISO string); a longer one already known stays.
   * @param {number | string | null | undefined} end
   */
  remember(end) {
    const until = typeof end === "number" ? end : Date.parse(end ?? "");
    if (!Number.isFinite(until) || until <= Date.now()) return;
    if ((stored() ?? 0) >= until) return;
    window.localStorage.setItem(KEY, JSON.stringify({ until }));
    window.dispatchEvent(new CustomEvent("baccarat:break", { detail: { until } }));
  },
  /**
   * "On a break until 8 Jun 2024, 14:00", or null when no break runs here.
   * @returns {string | null}
   */
  text(now = Date.now()) {
    const until = this.until(now);
    return until === null ? null : t("break.memo", { time: localTime(until) });
  },
};

// @ts-check
// The server's clock as seen from this page. Deadlines (closes_at) are the server's epoch
// milliseconds; counting down against the local clock alone would be off by any skew.

let offset = 0;

/**
 * Record the server's "now" (epoch ms) from a snapshot or an event.
 * @param {number | undefined} serverNow
 */
export function syncClock(serverNow) {
  if (Number.isFinite(serverNow)) offset = serverNow - Date.now();
}

/**
 * The server's current time in epoch milliseconds, estimated.
 * @returns {number}
 */
export function serverNow() {
  return Date.now() + offset;
}

/**
 * Milliseconds until a server deadline.
 * @param {number | null | undefined} deadline  epoch ms
 * @returns {number}
 */
export function msUntil(deadline) {
  return Number.isFinite(deadline) ? deadline - serverNow() : 0;
}

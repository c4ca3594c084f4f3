// @ts-check
// The player's id and bearer token (a guest's, or a logged-in player's with the username), kept
// in this browser only, and whether the person
// chose to watch rather than play (a spectator sends no token and cannot bet).
//
// Apart from the seat, and outliving it, the seat device token the server gave the browser's last
// seat (a guest's or a login's): sent when asking for a new guest, so that a browser whose last
// seat an operator locked gets no fresh guest, and to learn why a token stopped working.

const KEY = "baccarat.session";
const WATCH_KEY = "baccarat.watching";
const SEAT_DEVICE_KEY = "baccarat.seat-device";

/**
 * The stored seat, or null.
 * @returns {{id: string, token: string, username?: string | null} | null}
 */
function read() {
  try {
    const data = JSON.parse(window.localStorage.getItem(KEY) ?? "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

export const session = {
  /** The bearer token to send, or null for a spectator. */
  get token() {
    return this.watching ? null : this.savedToken;
  },
  /** The stored token even while watching. */
  get savedToken() {
    return read()?.token ?? null;
  },
  get playerId() {
    return read()?.id ?? null;
  },
  get watching() {
    return window.sessionStorage.getItem(WATCH_KEY) === "1";
  },
  set watching(value) {
    if (value) window.sessionStorage.setItem(WATCH_KEY, "1");
    else window.sessionStorage.removeItem(WATCH_KEY);
  },
  /** The username of a logged-in player, or null for a guest. */
  get username() {
    return read()?.username ?? null;
  },
  /** The seat device token of this browser's last seat, or null. */
  get seatDevice() {
    try {
      return window.localStorage.getItem(SEAT_DEVICE_KEY);
    } catch {
      return null;
    }
  },
  /**
   * Keep a new seat here (and stop watching), with its seat device token when the server gave one.
   * @param {{id: string, token: string, username?: string | null, seat_device?: string | null}} seat
   */
  save({ id, token, username = null, seat_device: seatDevice = null }) {
    window.localStorage.setItem(KEY, JSON.stringify({ id, token, username }));
    if (typeof seatDevice === "string" && seatDevice) window.localStorage.setItem(SEAT_DEVICE_KEY, seatDevice);
    this.watching = false;
  },
  /** Forget the seat (its seat device token stays: it is the browser's, not the session's). */
  clear() {
    window.localStorage.removeItem(KEY);
  },
};

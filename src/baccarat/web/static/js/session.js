// @ts-check
// The player's id and bearer token (a guest's, or a logged-in player's with the username), kept
// in this browser only, and whether the person
// chose to watch rather than play (a spectator sends no token and cannot bet).

const KEY = "baccarat.session";
const WATCH_KEY = "baccarat.watching";

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
  /**
   * Keep a new seat here (and stop watching).
   * @param {{id: string, token: string, username?: string | null}} seat
   */
  save({ id, token, username = null }) {
    window.localStorage.setItem(KEY, JSON.stringify({ id, token, username }));
    this.watching = false;
  },
  clear() {
    window.localStorage.removeItem(KEY);
  },
};

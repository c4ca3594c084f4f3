// Device tokens (docs/security.md, "Accounts and sessions"): a good login answers one for its
// username; this browser keeps it and sends it with the next login of that username, so that
// guesses from elsewhere, which fill the username's rate limits, cannot lock its owner out.

const PREFIX = "baccarat.device.";

/**
 * The device token kept for `username` (or for a member of staff, `staff:<name>`), if any.
 * @param {string} username
 * @returns {string | undefined}
 */
export function deviceToken(username) {
  try {
    return window.localStorage.getItem(PREFIX + username.trim().toLowerCase()) ?? undefined;
  } catch {
    return undefined; // storage refused (a private window): the login goes on without it
  }
}

/**
 * Keep the token a login answered for `username`.
 * @param {string} username
 * @param {unknown} token
 */
export function keepDeviceToken(username, token) {
  if (typeof token !== "string" || !token) return;
  try {
    window.localStorage.setItem(PREFIX + username.trim().toLowerCase(), token);
  } catch {
    // storage refused: the next login counts like any other
  }
}

// @ts-check
// An operator's launch link (provider mode): `/launch?token=…` is the normal page, opened for a
// casino's player. The token works once: it is taken out of the address bar at once (so it is
// neither kept in the history nor bookmarked), then traded (POST /api/launch) for a session that
// the page keeps as it keeps a login's. The page switches to the launch's language and opens the
// launch's table, or the lobby. A link used already or expired is said in the notice under the
// top bar, in the language shown.

import { api } from "./api.js";
import { announce } from "./dom.js";
import { bind, setLanguage, t } from "./i18n.js";
import { errorText } from "./refusals.js";
import { session } from "./session.js";

/**
 * Where the page goes once the link is traded: the launch's table, else the lobby.
 * @param {string | null | undefined} tableId
 * @returns {string}
 */
export function launchHash(tableId) {
  return typeof tableId === "string" && tableId ? `#/tables/${encodeURIComponent(tableId)}` : "#/";
}

/**
 * If the page was opened at an operator's launch link, trade its token for a session (kept as a
 * login's), switch to the launch's language and go to its table. Call once, before the page
 * reads its seat. Resolves to the launch's answer, or null when the page was not launched (or
 * the link was refused: the reason is then in `notice`).
 * @param {HTMLElement} notice  index.html's `#notice`
 * @returns {Promise<any | null>}
 */
export async function launchFromUrl(notice) {
  if (window.location.pathname !== "/launch") return null;
  const token = new URLSearchParams(window.location.search).get("token");
  // Out of the address bar before anything else: a token in the history is a token to replay.
  window.history.replaceState(null, "", `/${window.location.hash || "#/"}`);
  if (!token) return null;
  try {
    const launched = await api.launch(token);
    session.save({
      id: launched.player_id,
      token: launched.token,
      username: launched.username,
      seat_device: launched.seat_device,
    });
    if (launched.language === "en" || launched.language === "id") {
      await setLanguage(launched.language).catch(() => undefined);
    }
    window.history.replaceState(null, "", `/${launchHash(launched.table_id)}`);
    announce(t("launch.welcome", { name: launched.username, operator: launched.operator }));
    return launched;
  } catch (error) {
    bind(notice, "launch.refused", { reason: errorText(error) });
    notice.hidden = false;
    announce(notice.textContent ?? "");
    return null;
  }
}

// @ts-check
// Log in, register and log out. A login gets a session token that expires; the page says when the
// previous login was, so a person notices a login that was not theirs.
//
// And why a seat ended when an operator ended it (watchLockout). A lock or a closure of the
// account (the back office's POST /api/admin/players/{id}/lock) ends its sessions at once: the
// table's feed closes and the page's next request with the token is refused (401). The page then
// asks the server, with the seat device token the browser kept (session.js), whether the account
// was locked or closed, and says so under the top bar, in the language shown. "Play as guest" on a
// browser whose last seat an operator locked is refused by the server (403 device_locked, until
// the account is unlocked): said there too, in words. api.js tells of both through window events.

import { api } from "./api.js";
import { announce, h } from "./dom.js";
import { bind, t, utcStamp } from "./i18n.js";
import { errorText } from "./refusals.js";
import { session } from "./session.js";

/**
 * "2024-06-01T12:00:00.000Z" -> "2024-06-01 12:00:00 UTC" (the server's instants are UTC), in
 * the language shown (i18n.js utcStamp).
 * @param {string | null | undefined} iso
 * @returns {string}
 */
export function utcText(iso) {
  return utcStamp(iso);
}

/**
 * @param {string} key  the label's message
 * @param {HTMLInputElement} input
 */
function field(key, input) {
  return h("label", { class: "form-field" }, bind(h("span", { class: "form-field__label" }), key), input);
}

/**
 * The login dialog. `done(line)` is called after a login with the welcome line (its message key
 * and values, so it can follow a language switch). Returns {el, open()}.
 * @param {(line: {key: string, values: Record<string, import("./i18n.js").Value>}, login: any) => void} done
 *   also given the server's answer to the login
 */
export function loginDialog(done) {
  const username = h("input", {
    name: "username",
    autocomplete: "username",
    required: true,
    maxlength: "64",
    id: "login-username",
  });
  const password = h("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
    id: "login-password",
  });
  const message = h("p", { class: "form-message", role: "alert", id: "login-message" });
  const dialog = h("dialog", { class: "dialog", id: "login-dialog", "aria-labelledby": "login-title" });

  /** @param {"login" | "register"} mode */
  async function submit(mode) {
    message.textContent = "";
    const name = username.value.trim();
    if (!name || !password.value) {
      message.textContent = t("auth.missing");
      return;
    }
    try {
      if (mode === "register") await api.register(name, password.value);
      const login = await api.login(name, password.value);
      session.save({
        id: login.player_id,
        token: login.token,
        username: login.username,
        seat_device: login.seat_device,
      });
      password.value = "";
      dialog.close();
      const previous = login.previous_login_at;
      const time = () => utcText(previous);
      // Wrong passwords tried for this username since its previous login: its owner is told.
      const failed = Number(login.failed_logins ?? 0);
      done(
        !previous
          ? { key: "auth.welcome_first", values: { name: login.username } }
          : failed > 0
            ? { key: "auth.welcome_failed", values: { name: login.username, time, count: failed } }
            : { key: "auth.welcome", values: { name: login.username, time } },
        login,
      );
    } catch (error) {
      message.textContent = errorText(error);
    }
  }

  dialog.append(
    h(
      "form",
      {
        method: "dialog",
        class: "dialog__form",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          submit("login");
        },
      },
      bind(h("h2", { id: "login-title" }), "auth.title"),
      field("auth.username", username),
      field("auth.password", password),
      message,
      h(
        "div",
        { class: "dialog__actions" },
        bind(h("button", { type: "submit", class: "btn btn--gold", id: "login-submit" }), "auth.submit"),
        bind(
          h("button", { type: "button", class: "btn", id: "register-submit", onclick: () => submit("register") }),
          "auth.register",
        ),
        bind(h("button", { type: "button", class: "btn btn--ghost", onclick: () => dialog.close() }), "auth.cancel"),
      ),
    ),
  );
  return {
    el: dialog,
    open() {
      message.textContent = "";
      if (!dialog.open) dialog.showModal();
      username.focus();
    },
  };
}

/**
 * End the session on the server (a login's or a guest's), then forget the token here.
 * @returns {Promise<void>}
 */
export async function logout() {
  // Forgotten first: a poll sent while the session ends would be refused (401) with it.
  const token = session.token;
  session.clear();
  try {
    if (token) await api.logout(token);
  } catch {
    // An expired token has nothing left to end.
  }
  announce(t("auth.logged_out"));
}

/**
 * The line under the top bar: `key` of the catalogues, followed by a language switch.
 * @param {HTMLElement} notice
 * @param {string} key
 */
function sayLockout(notice, key) {
  bind(notice, key);
  notice.hidden = false;
  announce(t(key));
}

/**
 * Say why a seat ended (an operator locked or closed the account) or a guest was refused on this
 * browser for it, in `notice` (index.html's `#notice`).
 * @param {HTMLElement} notice
 */
export function watchLockout(notice) {
  /** @type {string | null} the refused token last asked about: one question per seat */
  let asked = null;
  window.addEventListener("baccarat:token-refused", async (event) => {
    const token = /** @type {CustomEvent<{token: string | null}>} */ (event).detail?.token ?? null;
    const device = session.seatDevice;
    if (!device || token === asked) return;
    asked = token;
    try {
      const { status } = await api.seatStatus(device);
      if (status === "locked" || status === "closed") sayLockout(notice, `lock.${status}`);
    } catch {
      // A token this server did not make, or no answer: the page goes on as a spectator's.
    }
  });
  window.addEventListener("baccarat:device-locked", () => sayLockout(notice, "error.device_locked"));
}

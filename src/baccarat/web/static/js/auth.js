// @ts-check
// Log in, register and log out. A login gets a session token that expires; the page says when the
// previous login was, so a person notices a login that was not theirs.

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
      session.save({ id: login.player_id, token: login.token, username: login.username });
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
  try {
    if (session.token) await api.logout();
  } catch {
    // An expired token has nothing left to end.
  }
  session.clear();
  announce(t("auth.logged_out"));
}

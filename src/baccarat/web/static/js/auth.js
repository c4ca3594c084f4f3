// @ts-check
// Log in, register and log out. A login gets a session token that expires; the page says when the
// previous login was, so a person notices a login that was not theirs.

import { ApiError, api } from "./api.js";
import { announce, h } from "./dom.js";
import { session } from "./session.js";

/**
 * "2024-06-01T12:00:00.000Z" -> "2024-06-01 12:00:00 UTC" (the server's instants are UTC).
 * @param {string | null | undefined} iso
 * @returns {string}
 */
export function utcText(iso) {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso ?? "");
  return match ? `${match[1]} ${match[2]} UTC` : String(iso ?? "–");
}

/**
 * @param {string} label
 * @param {HTMLInputElement} input
 */
function field(label, input) {
  return h("label", { class: "form-field" }, h("span", { class: "form-field__label" }, label), input);
}

/**
 * The login dialog. `done(text)` is called after a login with the welcome line.
 * Returns {el, open()}.
 * @param {(text: string, login: any) => void} done  also given the server's answer to the login
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
      message.textContent = "Enter a username and a password.";
      return;
    }
    try {
      if (mode === "register") await api.register(name, password.value);
      const login = await api.login(name, password.value);
      session.save({ id: login.player_id, token: login.token, username: login.username });
      password.value = "";
      dialog.close();
      const previous = login.previous_login_at
        ? `Your previous login was at ${utcText(login.previous_login_at)}.`
        : "This is your first login.";
      done(`Welcome, ${login.username}. ${previous}`, login);
    } catch (error) {
      message.textContent =
        error instanceof ApiError && error.code === "bad_credentials" ? "Wrong username or password." : error.message;
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
      h("h2", { id: "login-title" }, "Log in"),
      field("Username", username),
      field("Password", password),
      message,
      h(
        "div",
        { class: "dialog__actions" },
        h("button", { type: "submit", class: "btn btn--gold", id: "login-submit" }, "Log in"),
        h(
          "button",
          { type: "button", class: "btn", id: "register-submit", onclick: () => submit("register") },
          "Register and log in",
        ),
        h("button", { type: "button", class: "btn btn--ghost", onclick: () => dialog.close() }, "Cancel"),
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
  announce("You are logged out.");
}

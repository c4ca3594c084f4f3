// @ts-check
// "My account" (#/account): limits, breaks, the session time limit and reality checks, and the
// way to the history. Everything here is the player's own choice, stored and enforced by the server.

import { api } from "./api.js";
import { account } from "./account.js";
import { breaksPanel } from "./breaks.js";
import { announce, h } from "./dom.js";
import { money } from "./format.js";
import { limitsPanel, parseMoney } from "./limits.js";
import { duration } from "./sessionclock.js";

const SESSION_CHOICES = [null, 300, 900, 1800, 3600, 7200, 14_400];

/**
 * A select of session lengths.
 * @param {string} id
 * @param {string} label
 * @param {number | null} current  seconds, or null for none
 */
function choices(id, label, current) {
  return h(
    "label",
    { class: "form-field", for: id },
    h("span", { class: "form-field__label" }, label),
    h(
      "select",
      { id },
      SESSION_CHOICES.map((seconds) =>
        h(
          "option",
          { value: seconds === null ? "" : String(seconds), selected: seconds === current },
          seconds === null ? "None" : duration(seconds),
        ),
      ),
    ),
  );
}

function sessionPanel() {
  const form = h("div", { class: "rg-session" });
  const message = h("p", { class: "form-message", role: "alert", id: "session-message" });
  const el = h(
    "section",
    { class: "panel rg-panel", id: "session-panel", "aria-labelledby": "session-title" },
    h("h2", { class: "panel-title", id: "session-title" }, "Session time"),
    h(
      "p",
      { class: "rg-note" },
      "A session starts when you log in. At its time limit new bets stop; a reality check pauses betting until you read where you stand.",
    ),
    form,
    message,
  );
  return {
    el,
    async load() {
      let settings = { time_limit_s: null, reality_check_every_s: null };
      try {
        settings = (await api.session()).settings ?? settings;
      } catch (error) {
        message.textContent = error.message;
      }
      const limit = choices("session-limit", "Session time limit", settings.time_limit_s);
      const every = choices("reality-every", "Reality check every", settings.reality_check_every_s);
      const value = (/** @type {string} */ id) => {
        const text = /** @type {HTMLSelectElement} */ (form.querySelector(`#${id}`)).value;
        return text === "" ? null : Number(text);
      };
      form.replaceChildren(
        limit,
        every,
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small",
            id: "session-save",
            onclick: async () => {
              try {
                await api.setSessionSettings({
                  time_limit_s: value("session-limit"),
                  reality_check_every_s: value("reality-every"),
                });
                message.dataset.tone = "info";
                message.textContent = "Session settings saved.";
                announce("Session settings saved.");
              } catch (error) {
                message.dataset.tone = "error";
                message.textContent = error.message;
              }
            },
          },
          "Save session settings",
        ),
      );
    },
  };
}

/** The balance as the account view shows it: "Demo balance" for a guest's demo money. */
function balanceLine() {
  const amount = h(
    "span",
    { id: "account-balance-amount" },
    Number.isInteger(account.balance) ? money(account.balance) : "–",
  );
  return account.demo
    ? h(
        "p",
        { class: "demo-balance", id: "account-balance" },
        h("span", { class: "demo-balance__tag" }, "Demo"),
        " balance ",
        amount,
      )
    : h("p", { class: "demo-balance", id: "account-balance" }, "Balance ", amount);
}

/** A guest's panel: demo money, which the cashier neither takes nor pays out. */
function demoPanel() {
  return h(
    "section",
    { class: "panel rg-panel", id: "cashier-panel", "aria-labelledby": "cashier-title" },
    h("h2", { class: "panel-title", id: "cashier-title" }, "Demo money"),
    balanceLine(),
    h(
      "p",
      { class: "rg-note" },
      "You play as a guest with demo money: it can be neither deposited to nor withdrawn. Register to play with money of your own.",
    ),
    // Ends the guest's session on the server: its token is refused from then on.
    h(
      "button",
      {
        type: "button",
        class: "btn",
        id: "end-demo",
        onclick: () =>
          account.signOut().then(() => {
            window.location.hash = "#/";
          }),
      },
      "End demo play on this device",
    ),
  );
}

function cashierPanel() {
  if (account.demo) return demoPanel();
  const input = h("input", {
    id: "deposit-amount",
    inputmode: "decimal",
    class: "rg-input",
    placeholder: "e.g. 100.00",
  });
  const message = h("p", { class: "form-message", role: "alert", id: "deposit-message" });
  const deposit = async () => {
    const amount = parseMoney(input.value);
    if (!Number.isInteger(amount) || amount < 1) {
      message.dataset.tone = "error";
      message.textContent = "Enter an amount such as 100 or 12.50.";
      return;
    }
    try {
      const answer = await api.deposit(amount);
      account.setBalance(answer.balance);
      input.value = "";
      message.dataset.tone = "info";
      message.textContent = `Deposited ${money(answer.amount)}. Balance ${money(answer.balance)}.`;
      announce(message.textContent);
    } catch (error) {
      message.dataset.tone = "error";
      message.textContent = error.message;
    }
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") deposit();
  });
  return h(
    "section",
    { class: "panel rg-panel", id: "cashier-panel", "aria-labelledby": "cashier-title" },
    h("h2", { class: "panel-title", id: "cashier-title" }, "Play money"),
    balanceLine(),
    h(
      "div",
      { class: "rg-session" },
      h(
        "label",
        { class: "form-field", for: "deposit-amount" },
        h("span", { class: "form-field__label" }, "Deposit amount (dollars)"),
        input,
      ),
      h("button", { type: "button", class: "btn btn--small", id: "deposit-submit", onclick: deposit }, "Deposit"),
    ),
    message,
  );
}

/**
 * Mount the account view in `main`; returns {destroy()}.
 * @param {HTMLElement} main
 * @param {{openHistory: () => void, openLogin: () => void}} links
 * @returns {{destroy(): void}}
 */
export function mountAccount(main, { openHistory, openLogin }) {
  document.title = "My account · Baccarat";
  const heading = h("h1", { class: "account-title" }, "My account");
  if (!account.playing) {
    main.replaceChildren(
      h(
        "article",
        { class: "panel account-view" },
        heading,
        h("p", {}, "Log in, or take a seat as a guest, to set limits and breaks."),
        h("button", { type: "button", class: "btn btn--gold", onclick: openLogin }, "Log in"),
      ),
    );
    return { destroy() {} };
  }
  const limits = limitsPanel();
  const session = sessionPanel();
  const breaks = breaksPanel({ onBreak: () => account.forget() });
  main.replaceChildren(
    h(
      "div",
      { class: "account-view" },
      h(
        "div",
        { class: "account-view__head" },
        heading,
        h("button", { type: "button", class: "btn", onclick: openHistory }, "My last rounds"),
      ),
      cashierPanel(),
      limits.el,
      session.el,
      breaks.el,
    ),
  );
  limits.load();
  session.load();
  breaks.load();
  return { destroy() {} };
}

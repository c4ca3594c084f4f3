// @ts-check
// "My account" (#/account): limits, breaks, the session time limit and reality checks, and the
// way to the history. Everything here is the player's own choice, stored and enforced by the server.

import { api } from "./api.js";
import { account } from "./account.js";
import { breaksPanel } from "./breaks.js";
import { announce, h } from "./dom.js";
import { money } from "./format.js";
import { currencySymbol, formatNumber, t, tNodes } from "./i18n.js";
import { limitsPanel, parseMoney } from "./limits.js";
import { errorText } from "./refusals.js";
import { duration } from "./sessionclock.js";

const SESSION_CHOICES = [null, 300, 900, 1800, 3600, 7200, 14_400];

/**
 * A select of session lengths.
 * @param {string} id
 * @param {string} label  in words already
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
          seconds === null ? t("session.none") : duration(seconds),
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
    h("h2", { class: "panel-title", id: "session-title" }, t("session.title")),
    h("p", { class: "rg-note" }, t("session.note")),
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
        message.textContent = errorText(error);
      }
      const limit = choices("session-limit", t("session.limit"), settings.time_limit_s);
      const every = choices("reality-every", t("session.every"), settings.reality_check_every_s);
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
                message.textContent = t("session.saved");
                announce(t("session.saved"));
              } catch (error) {
                message.dataset.tone = "error";
                message.textContent = errorText(error);
              }
            },
          },
          t("session.save"),
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
        tNodes("account.demo_balance", { demo: h("span", { class: "demo-balance__tag" }, t("bar.demo")), amount }),
      )
    : h("p", { class: "demo-balance", id: "account-balance" }, tNodes("account.balance", { amount }));
}

/** A guest's panel: demo money, which the cashier neither takes nor pays out. */
function demoPanel() {
  return h(
    "section",
    { class: "panel rg-panel", id: "cashier-panel", "aria-labelledby": "cashier-title" },
    h("h2", { class: "panel-title", id: "cashier-title" }, t("cashier.demo_title")),
    balanceLine(),
    h("p", { class: "rg-note" }, t("cashier.demo_note")),
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
      t("cashier.end_demo"),
    ),
  );
}

function cashierPanel() {
  if (account.demo) return demoPanel();
  const input = h("input", {
    id: "deposit-amount",
    inputmode: "decimal",
    class: "rg-input",
    placeholder: t("cashier.example", { amount: formatNumber("100.00") }),
  });
  const message = h("p", { class: "form-message", role: "alert", id: "deposit-message" });
  const deposit = async () => {
    const amount = parseMoney(input.value);
    if (!Number.isInteger(amount) || amount < 1) {
      message.dataset.tone = "error";
      message.textContent = t("cashier.invalid", { whole: "100", part: formatNumber("12.50") });
      return;
    }
    try {
      const answer = await api.deposit(amount);
      account.setBalance(answer.balance);
      input.value = "";
      message.dataset.tone = "info";
      message.textContent = t("cashier.deposited", { amount: money(answer.amount), balance: money(answer.balance) });
      announce(message.textContent);
    } catch (error) {
      message.dataset.tone = "error";
      message.textContent = errorText(error);
    }
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") deposit();
  });
  return h(
    "section",
    { class: "panel rg-panel", id: "cashier-panel", "aria-labelledby": "cashier-title" },
    h("h2", { class: "panel-title", id: "cashier-title" }, t("cashier.title")),
    balanceLine(),
    h(
      "div",
      { class: "rg-session" },
      h(
        "label",
        { class: "form-field", for: "deposit-amount" },
        h("span", { class: "form-field__label" }, t("cashier.amount", { symbol: currencySymbol() })),
        input,
      ),
      h(
        "button",
        { type: "button", class: "btn btn--small", id: "deposit-submit", onclick: deposit },
        t("cashier.deposit"),
      ),
    ),
    message,
  );
}

/**
 * Words as a CSS string ("Now" -> "\"Now\""), for a `content` the style sheet reads from a
 * custom property.
 * @param {string} text
 */
function cssString(text) {
  return `"${text.replace(/[\\"]/g, "\\$&").replace(/\n/g, " ")}"`;
}

/**
 * Mount the account view in `main`; returns {destroy()}.
 * @param {HTMLElement} main
 * @param {{openHistory: () => void, openLogin: () => void}} links
 * @returns {{destroy(): void}}
 */
export function mountAccount(main, { openHistory, openLogin }) {
  document.title = t("app.title", { page: t("account.title") });
  const heading = h("h1", { class: "account-title" }, t("account.title"));
  if (!account.playing) {
    main.replaceChildren(
      h(
        "article",
        { class: "panel account-view" },
        heading,
        h("p", {}, t("account.login_needed")),
        h("button", { type: "button", class: "btn btn--gold", onclick: openLogin }, t("account.login")),
      ),
    );
    return { destroy() {} };
  }
  const limits = limitsPanel();
  // On a phone each limit is a card whose figures are named (account.css): the names are the
  // catalogue's, given to the style sheet as CSS strings, so they are in the page's language.
  limits.el.style.setProperty("--limit-now", cssString(t("limits.col.now")));
  limits.el.style.setProperty("--limit-used", cssString(t("limits.col.used")));
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
        h("button", { type: "button", class: "btn", onclick: openHistory }, t("account.history")),
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

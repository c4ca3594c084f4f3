// @ts-check
// The session clock in the top bar (time played, and the session's time limit) and the
// reality-check dialog. Both come from GET /api/me/session, read every few seconds while a
// player is seated; the clock ticks in between. When a reality check is due the server refuses
// new bets until it is acknowledged, and the dialog, modal, says why.

import { api } from "./api.js";
import { announce, h } from "./dom.js";
import { money } from "./format.js";
import { bind, t } from "./i18n.js";
import { errorText } from "./refusals.js";

const POLL_MS = 5000;

/**
 * 3725 -> "1:02:05", 65 -> "1:05".
 * @param {number} seconds
 * @returns {string}
 */
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** @param {number} minor */
function signed(minor) {
  return minor > 0 ? `+${money(minor)}` : minor < 0 ? money(minor) : money(0);
}

/**
 * @param {HTMLElement} clock  the top bar's clock element
 * @param {{history: () => void, leave: () => void, unauthorized?: () => void}} links  what the
 *   dialog's links do, and what to do when the token is refused
 */
export function sessionWatch(clock, links) {
  /** @type {any} the last GET /api/me/session */
  let view = null;
  let readAt = 0;
  /** @type {number | null} */
  let timer = null;
  /** @type {number | null} */
  let ticker = null;
  /** @type {string | null} */
  let shownCheck = null;

  const facts = h("dl", { class: "reality__facts" });
  const dialog = h("dialog", {
    class: "dialog",
    id: "reality-dialog",
    "aria-labelledby": "reality-title",
    "aria-describedby": "reality-text",
  });
  const text = h("p", { id: "reality-text" });
  const message = h("p", { class: "form-message", role: "alert" });
  dialog.append(
    h(
      "div",
      { class: "dialog__form" },
      bind(h("h2", { id: "reality-title" }), "reality.title"),
      text,
      facts,
      bind(h("p", {}), "reality.note"),
      message,
      h(
        "div",
        { class: "dialog__actions" },
        bind(
          h("button", { type: "button", class: "btn btn--gold", id: "reality-continue", onclick: () => acknowledge() }),
          "reality.continue",
        ),
        bind(
          h("button", {
            type: "button",
            class: "btn",
            id: "reality-history",
            onclick: () => {
              links.history();
            },
          }),
          "reality.history",
        ),
        bind(
          h("button", {
            type: "button",
            class: "btn btn--ghost",
            id: "reality-leave",
            onclick: () => {
              dialog.close();
              links.leave();
            },
          }),
          "reality.leave",
        ),
      ),
    ),
  );
  // Escape must not dismiss the check without an answer.
  dialog.addEventListener("cancel", (/** @type {Event} */ event) => event.preventDefault());

  function played() {
    if (!view?.session) return null;
    return view.time_played_s + (Date.now() - readAt) / 1000;
  }

  function tick() {
    const seconds = played();
    if (seconds === null) {
      clock.hidden = true;
      return;
    }
    clock.hidden = false;
    const limit = view.session.time_limit_s;
    const spent = duration(seconds);
    const words = limit ? t("session.of", { played: spent, limit: duration(limit) }) : spent;
    clock.textContent = t("session.clock", { time: words });
    clock.dataset.limitReached = String(Boolean(view.limit_reached));
    clock.setAttribute(
      "aria-label",
      limit ? t("session.aria_limit", { played: spent, limit: duration(limit) }) : t("session.aria", { played: spent }),
    );
  }

  /** @param {{time_played_s: number, net_result: number, wagered: number}} check */
  function showCheck(check) {
    text.textContent = t("reality.text");
    facts.replaceChildren(
      h(
        "div",
        { dataset: { fact: "played" } },
        h("dt", {}, t("reality.played")),
        h("dd", {}, duration(check.time_played_s)),
      ),
      h("div", { dataset: { fact: "net" } }, h("dt", {}, t("reality.net")), h("dd", {}, signed(check.net_result))),
      h("div", { dataset: { fact: "wagered" } }, h("dt", {}, t("reality.wagered")), h("dd", {}, money(check.wagered))),
    );
    message.textContent = "";
    if (!dialog.open) {
      dialog.showModal();
      announce(t("reality.announce", { time: duration(check.time_played_s), net: signed(check.net_result) }));
    }
  }

  /** @param {any} fresh  GET /api/me/session, or null when not playing */
  function apply(fresh) {
    view = fresh;
    readAt = Date.now();
    tick();
    if (fresh?.reality_check_due && fresh.reality_check) {
      shownCheck = fresh.reality_check.at;
      showCheck(fresh.reality_check);
    } else if (dialog.open && shownCheck) {
      dialog.close();
      shownCheck = null;
    }
  }

  async function acknowledge() {
    try {
      const fresh = await api.acknowledge();
      shownCheck = null;
      dialog.close();
      apply(fresh);
      announce(t("reality.thanks"));
    } catch (error) {
      message.textContent = errorText(error);
    }
  }

  async function refresh() {
    try {
      apply(await api.session());
    } catch (error) {
      apply(null);
      // An expired login: the seat is dropped (which stops this polling).
      if (error?.status === 401) links.unauthorized?.();
    }
  }

  return {
    dialog,
    refresh,
    /**
     * Follow the session while `playing`; stop otherwise.
     * @param {boolean} playing
     */
    follow(playing) {
      window.clearInterval(timer);
      window.clearInterval(ticker);
      if (!playing) {
        apply(null);
        if (dialog.open) dialog.close();
        return;
      }
      refresh();
      timer = window.setInterval(refresh, POLL_MS);
      ticker = window.setInterval(tick, 1000);
    },
  };
}

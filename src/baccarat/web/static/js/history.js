// @ts-check
// Game recall: the player's last ten rounds (GET /api/me/history), one click away from anywhere,
// with the whole history as CSV. Each row: round, UTC time, bets per spot, cards, result,
// returns and the balance before and after, all as the server recorded them.

import { api, historyCsv } from "./api.js";
import { utcText } from "./auth.js";
import { fill, h } from "./dom.js";
import { betName, money } from "./format.js";
import { bind, t } from "./i18n.js";
import { errorText } from "./refusals.js";
import { voidReason } from "./voidnotice.js";

/**
 * A round of GET /api/me/history.
 * @typedef {Record<string, any>} HistoryRound
 */

/** @param {HistoryRound} round */
function resultText(round) {
  const result = round.result;
  if (round.phase === "voided") {
    return round.void_reason ? t("history.void", { reason: voidReason(round.void_reason) }) : t("history.void_plain");
  }
  if (!result?.winner) return t("history.in_play");
  const winner = result.winner === "tie" ? t("result.tie") : t("result.wins", { side: t(`side.${result.winner}`) });
  if (!Number.isInteger(result.player_total)) return winner;
  return t("history.result", { result: winner, player: result.player_total, banker: result.banker_total });
}

/** @param {HistoryRound} round */
function betsText(round) {
  return round.bets
    .map((/** @type {any} */ bet) => t("history.stake", { bet: betName(bet.bet), amount: money(bet.stake) }))
    .join(", ");
}

/** @param {HistoryRound} round */
function returnsText(round) {
  return round.bets
    .map((/** @type {any} */ bet) =>
      t("history.stake", {
        bet: betName(bet.bet),
        amount: bet.returned === null || bet.returned === undefined ? "–" : money(bet.returned),
      }),
    )
    .join(", ");
}

/** @param {HistoryRound} round */
function row(round) {
  return h(
    "tr",
    { dataset: { round: String(round.round_id) } },
    h("th", { scope: "row" }, t("facts.round_id", { id: round.round_id })),
    h("td", { dataset: { col: "time" } }, utcText(round.time)),
    h("td", { dataset: { col: "bets" } }, betsText(round)),
    h("td", { dataset: { col: "cards" } }, (round.cards ?? []).join(" ") || "–"),
    h("td", { dataset: { col: "result" } }, resultText(round)),
    h("td", { dataset: { col: "returns" } }, returnsText(round)),
    h("td", { dataset: { col: "before" } }, money(round.balance_before)),
    h("td", { dataset: { col: "after" } }, money(round.balance_after)),
  );
}

/** @param {HTMLElement} button  the Export button, busy meanwhile */
async function saveCsv(button) {
  button.setAttribute("aria-busy", "true");
  try {
    const text = await historyCsv();
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const link = h("a", { href: url, download: "baccarat-history.csv", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    button.textContent = t("history.export_failed", { reason: errorText(error) });
  } finally {
    button.removeAttribute("aria-busy");
  }
}

/** The history dialog; returns {el, open()}. */
export function historyDialog() {
  const body = h("tbody", {});
  const status = h("p", { class: "form-message", dataset: { tone: "info" } });
  const table = h(
    "table",
    { class: "history-table" },
    bind(h("caption", { class: "visually-hidden" }), "history.caption"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["round", "time", "bets", "cards", "result", "returns", "before", "after"].map((column) =>
          bind(
            h("th", { scope: "col", dataset: column === "before" || column === "after" ? { balance: column } : {} }),
            `history.col.${column}`,
          ),
        ),
      ),
    ),
    body,
  );
  const dialog = h(
    "dialog",
    { class: "dialog dialog--wide", id: "history-dialog", "aria-labelledby": "history-title" },
    h(
      "div",
      { class: "dialog__form" },
      bind(h("h2", { id: "history-title" }), "history.title"),
      status,
      h("div", { class: "history-scroll" }, table),
      h(
        "div",
        { class: "dialog__actions" },
        bind(
          h("button", {
            type: "button",
            class: "btn",
            id: "history-csv",
            onclick: (/** @type {MouseEvent} */ event) => saveCsv(/** @type {HTMLElement} */ (event.currentTarget)),
          }),
          "history.export",
        ),
        bind(h("button", { type: "button", class: "btn btn--gold", onclick: () => dialog.close() }), "history.close"),
      ),
    ),
  );

  async function load() {
    status.textContent = t("history.loading");
    try {
      const [page, me] = await Promise.all([api.history(1, 10), api.me()]);
      // A guest's balances are demo money, and say so like every balance the page shows.
      for (const th of /** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll("th[data-balance]"))) {
        const column = th.dataset.balance;
        bind(th, me.demo ? `history.col.demo_${column}` : `history.col.${column}`);
      }
      fill(body, page.rounds.map(row));
      status.textContent = page.total
        ? t("history.shown", { shown: Math.min(page.total, 10), count: page.total })
        : t("history.empty");
    } catch (error) {
      fill(body);
      status.textContent = t("history.failed", { reason: errorText(error) });
    }
  }

  return {
    el: dialog,
    open() {
      if (!dialog.open) dialog.showModal();
      return load();
    },
  };
}

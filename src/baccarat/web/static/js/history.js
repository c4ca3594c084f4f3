// @ts-check
// Game recall: the player's last ten rounds (GET /api/me/history), one click away from anywhere,
// with the whole history as CSV. Each row: round, UTC time, bets per spot, cards, result,
// returns and the balance before and after, all as the server recorded them.

import { api, historyCsv } from "./api.js";
import { utcText } from "./auth.js";
import { fill, h } from "./dom.js";
import { betName, money } from "./format.js";

/**
 * A round of GET /api/me/history.
 * @typedef {Record<string, any>} HistoryRound
 */

/** @type {Record<string, string>} */
const WINNER = { player: "Player wins", banker: "Banker wins", tie: "Tie" };

/** @param {HistoryRound} round */
function resultText(round) {
  const result = round.result;
  if (round.phase === "voided") return round.void_reason ? `Void: ${round.void_reason}` : "Void: stakes returned";
  if (!result?.winner) return "In play";
  const totals = Number.isInteger(result.player_total) ? ` ${result.player_total}–${result.banker_total}` : "";
  return `${WINNER[result.winner] ?? result.winner}${totals}`;
}

/** @param {HistoryRound} round */
function betsText(round) {
  return round.bets.map((/** @type {any} */ bet) => `${betName(bet.bet)} ${money(bet.stake)}`).join(", ");
}

/** @param {HistoryRound} round */
function returnsText(round) {
  return round.bets
    .map(
      (/** @type {any} */ bet) =>
        `${betName(bet.bet)} ${bet.returned === null || bet.returned === undefined ? "–" : money(bet.returned)}`,
    )
    .join(", ");
}

/** @param {HistoryRound} round */
function row(round) {
  return h(
    "tr",
    { dataset: { round: String(round.round_id) } },
    h("th", { scope: "row" }, `#${round.round_id}`),
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
    button.textContent = `Cannot export: ${error.message}`;
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
    h("caption", { class: "visually-hidden" }, "Your last ten rounds, newest first"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Round", "Time (UTC)", "Bets", "Cards", "Result", "Returns", "Balance before", "Balance after"].map((label) =>
          h("th", { scope: "col", dataset: label.startsWith("Balance") ? { balance: label } : {} }, label),
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
      h("h2", { id: "history-title" }, "Your last rounds"),
      status,
      h("div", { class: "history-scroll" }, table),
      h(
        "div",
        { class: "dialog__actions" },
        h(
          "button",
          {
            type: "button",
            class: "btn",
            id: "history-csv",
            onclick: (/** @type {MouseEvent} */ event) => saveCsv(/** @type {HTMLElement} */ (event.currentTarget)),
          },
          "Export all as CSV",
        ),
        h("button", { type: "button", class: "btn btn--gold", onclick: () => dialog.close() }, "Close"),
      ),
    ),
  );

  async function load() {
    status.textContent = "Loading…";
    try {
      const [page, me] = await Promise.all([api.history(1, 10), api.me()]);
      // A guest's balances are demo money, and say so like every balance the page shows.
      for (const th of /** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll("th[data-balance]"))) {
        th.textContent = me.demo ? `Demo ${th.dataset.balance.toLowerCase()}` : th.dataset.balance;
      }
      fill(body, page.rounds.map(row));
      status.textContent = page.total
        ? `${Math.min(page.total, 10)} of ${page.total} rounds shown, newest first.`
        : "You have not played a round yet.";
    } catch (error) {
      fill(body);
      status.textContent = `The history cannot be shown: ${error.message}`;
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

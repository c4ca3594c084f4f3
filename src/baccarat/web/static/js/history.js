// @ts-check
// Game recall: the player's last ten rounds (GET /api/me/history), one click away from anywhere,
// with the whole history as CSV. Each row: the round as its table names it ("standard · Shoe 2 ·
// Round 1": the table, its shoe's number there and the round's number in that shoe), UTC time, bets per spot, cards, result,
// returns and the balance before and after, all as the server recorded them.

import { api, historyCsv } from "./api.js";
import { utcText } from "./auth.js";
import { cardElement, handTotal } from "./cards.js";
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

/**
 * The round as its table names it: "standard · Shoe 2 · Round 1", the table's id (an identifier,
 * the same in every language, so marked as code), then the shoe and the round as the table shows
 * them. The server-wide round id is not shown.
 * @param {HistoryRound} round
 * @returns {import("./dom.js").Kid[]}
 */
export function roundName(round) {
  const shoe = Number.isInteger(round.shoe_number) ? round.shoe_number : "–";
  return [
    h("code", { class: "history-round__table" }, String(round.table_id)),
    " · ",
    t("stage.round", { shoe, round: round.number }),
  ];
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

/**
 * The round's cards (in deal order: P1 B1 P2 B2, then the third cards) split by hand. A fifth
 * card is the Player's third when the Player's total says so (or, without a result, when the
 * Player's two cards made 0–5, the tableau's rule); a sixth is the Banker's.
 * @param {string[]} codes
 * @param {Record<string, any> | null | undefined} result
 * @returns {{player: string[], banker: string[]}}
 */
export function splitHands(codes, result) {
  const player = codes.filter((_, i) => i < 4 && i % 2 === 0);
  const banker = codes.filter((_, i) => i < 4 && i % 2 === 1);
  const rest = codes.slice(4);
  if (rest.length >= 2) return { player: [...player, rest[0]], banker: [...banker, rest[1]] };
  if (rest.length === 1) {
    const playerDrew = Number.isInteger(result?.player_total)
      ? handTotal([...player, rest[0]]) === result?.player_total && handTotal(banker) === result?.banker_total
      : handTotal(player) <= 5;
    return playerDrew ? { player: [...player, rest[0]], banker } : { player, banker: [...banker, rest[0]] };
  }
  return { player, banker };
}

/** @param {HistoryRound} round */
function handsCell(round) {
  const codes = round.cards ?? [];
  if (!codes.length) return "–";
  const hands = splitHands(codes, round.result);
  return h(
    "div",
    { class: "history-hands" },
    ["player", "banker"].map((side) =>
      h(
        "div",
        {
          class: `history-hand history-hand--${side}`,
          role: "group",
          "aria-label": t("stage.hand", { side: t(`side.${side}`) }),
          dataset: { hand: side },
        },
        h("span", { class: "history-hand__name", "aria-hidden": "true" }, t(`side.${side}`)),
        h(
          "span",
          { class: "history-hand__cards" },
          hands[/** @type {"player" | "banker"} */ (side)].map((code, i) => cardElement(code, { sideways: i === 2 })),
        ),
      ),
    ),
  );
}

/**
 * @param {HistoryRound} round
 * @param {boolean} demo  a guest's balances are demo money
 */
function row(round, demo) {
  /**
   * A cell named by its column, for the stacked rows of a phone.
   * @param {string} col
   * @param {string} key
   * @param {any} content
   */
  const cell = (col, key, content) => h("td", { dataset: { col, label: t(key) } }, content);
  return h(
    "tr",
    { dataset: { round: String(round.round_id) } },
    h("th", { scope: "row" }, roundName(round)),
    cell("time", "history.col.time", utcText(round.time)),
    cell("bets", "history.col.bets", betsText(round)),
    // The codes in deal order stay readable for tools (data-cards), as the record keeps them.
    h(
      "td",
      { dataset: { col: "cards", label: t("history.col.cards"), cards: (round.cards ?? []).join(" ") } },
      handsCell(round),
    ),
    cell("result", "history.col.result", resultText(round)),
    cell("returns", "history.col.returns", returnsText(round)),
    cell("before", demo ? "history.col.demo_before" : "history.col.before", money(round.balance_before)),
    cell("after", demo ? "history.col.demo_after" : "history.col.after", money(round.balance_after)),
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
      bind(h("h2", { id: "history-title", tabindex: "-1" }), "history.title"),
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
      fill(
        body,
        page.rounds.map((/** @type {HistoryRound} */ round) => row(round, Boolean(me.demo))),
      );
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
      if (!dialog.open) {
        dialog.showModal();
        // The dialog's title takes the focus, as a view's heading does after a navigation.
        /** @type {HTMLElement} */ (dialog.querySelector("#history-title")).focus();
      }
      return load();
    },
  };
}

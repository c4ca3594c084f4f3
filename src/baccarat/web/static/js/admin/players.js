// @ts-check
// Players: search by id or username; one player's balance, status, responsible-gaming state
// (own limits, pending increases, breaks, session), the operator's limits and the history of
// rounds; lock, unlock, close the account, and set or remove an operator limit, each with a reason.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { facts } from "./rounds.js";
import { minorOf } from "./tables.js";
import { WordedError, actButton, button, dataTable, field, heading, select, show, withReason } from "./ui.js";

const KINDS = ["deposit", "loss", "wager"];
const PERIODS = ["24h", "7d", "30d"];

/**
 * "Loss limit (24 hours)".
 * @param {{kind: string, period: string}} limit
 */
function limitName({ kind, period }) {
  return t("limit.name_message", { kind: t(`limit.kind.${kind}`), period: t(`limit.period.${period}`) });
}

/**
 * A length of time in seconds as a clock reads it: 3600 -> "1:00:00", 300 -> "5:00".
 * @param {number | null | undefined} seconds
 */
function span(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.floor(seconds));
  const [hours, minutes, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

/**
 * The player's running session as labelled fields: when it started and ends, its time limit,
 * the reality checks' interval, the next one due and the last one read.
 * @param {Record<string, any>} session  the API's session (started_at, time_limit_s, …)
 */
function sessionFacts(session) {
  /** @type {[string, string][]} */
  const rows = [
    ["admin.session.started", show.time(session.started_at)],
    ["admin.session.time_limit", span(session.time_limit_s)],
    ["admin.session.ends", show.time(session.ends_at)],
    ["admin.session.reality_every", span(session.reality_check_every_s)],
    ["admin.session.reality_due", show.time(session.reality_check_due_at)],
    ["admin.session.acknowledged", show.time(session.acknowledged_at)],
  ];
  return h(
    "dl",
    { class: "admin-kv admin-session" },
    rows.map(([key, value]) => h("div", null, h("dt", { text: t(key) }), h("dd", { text: value }))),
  );
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  a player id to open at once
 */
export function mount(main, ctx, arg) {
  let gone = false;
  const q = h("input", { name: "q", type: "search", maxlength: "40", required: true, autocomplete: "off" });
  const list = h("div", { class: "admin-block" });
  const detail = h("section", { class: "admin-block admin-detail", "aria-labelledby": "player-title", hidden: true });

  async function search() {
    if (!q.value.trim()) return;
    try {
      const { players } = await adminApi.players(q.value.trim());
      if (gone) return;
      fill(
        list,
        dataTable(
          t("admin.players.caption", { q: q.value.trim() }),
          [
            { key: "admin.col.player", cell: (p) => show.id(p.id) },
            { key: "admin.col.username", cell: (p) => p.username ?? t("admin.players.guest") },
            { key: "admin.col.balance", num: true, cell: (p) => show.money(p.balance) },
            { key: "admin.col.status", cell: (p) => show.badge(`admin.account.${p.status}`, p.status) },
            { key: "admin.col.created", cell: (p) => show.time(p.created_at) },
            {
              key: "admin.col.actions",
              cell: (p) =>
                button(t("admin.players.open"), () => open(p.id), {
                  "aria-label": t("admin.players.open_of", { name: p.username ?? p.id }),
                }),
            },
          ],
          players,
          { rowProps: (p) => ({ "data-player": p.id }) },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  /**
   * @param {string} id
   * @param {number} [page]
   */
  async function open(id, page = 1) {
    try {
      const [info, history] = await Promise.all([adminApi.player(id), adminApi.history(id, page)]);
      if (gone) return;
      draw(info, history);
    } catch (error) {
      ctx.fail(error);
    }
  }

  /**
   * @param {any} info
   * @param {any} history
   */
  function draw(info, history) {
    const { player } = info;
    const name = player.username ?? t("admin.players.guest");
    /**
     * @param {"lock" | "unlock" | "close"} action
     * @param {boolean} enabled
     */
    const state = (action, enabled) =>
      actButton(
        ctx,
        t(`admin.players.${action}`),
        () =>
          withReason(
            ctx,
            t(`admin.players.${action}_title`, { name }),
            t(`admin.players.${action}`),
            (reason) => adminApi.setPlayer(player.id, action, reason),
            (answer) => t("admin.players.state_done", { name, status: t(`admin.account.${answer.status}`) }),
          ).then((answer) => answer && open(player.id)),
        { name: action, danger: action !== "unlock", enabled },
      );
    const title = h("h2", { id: "player-title", tabindex: "-1", text: t("admin.players.detail", { name }) });
    const inForce = info.breaks?.in_force;
    fill(
      detail,
      title,
      facts([
        ["admin.col.player", h("code", { text: player.id })],
        ["admin.col.balance", h("span", { "data-balance": String(player.balance), text: show.money(player.balance) })],
        ["admin.players.money", t(player.demo ? "admin.players.demo" : "admin.players.real")],
        ["admin.col.status", show.badge(`admin.account.${player.status}`, player.status)],
        ["admin.players.status_reason", info.status_reason ?? "–"],
        ["admin.col.created", show.time(player.created_at)],
        ["admin.players.last_login", show.time(player.last_login_at)],
        [
          "admin.players.report_link",
          h("a", {
            href: `#/reports/players/${encodeURIComponent(player.id)}`,
            "data-report": "",
            text: t("admin.reports.players_link"),
          }),
        ],
        [
          "admin.players.break",
          inForce
            ? t("admin.players.break_until", {
                kind: t(`break.label.${inForce.kind}`),
                until: show.time(inForce.until),
              })
            : "–",
        ],
        ["admin.players.session", info.session ? sessionFacts(info.session) : "–"],
      ]),
      h(
        "div",
        { class: "admin-actions" },
        state("lock", player.status === "active"),
        state("unlock", player.status === "locked"),
        state("close", player.status !== "closed"),
      ),
      dataTable(
        t("admin.players.limits_caption"),
        [
          { key: "admin.col.limit", cell: limitName },
          { key: "admin.col.amount", num: true, cell: (l) => show.money(l.amount) },
          { key: "admin.col.pending", cell: (l) => pendingOf(info.pending, l) },
        ],
        info.limits,
        { empty: "admin.players.no_limits" },
      ),
      dataTable(
        t("admin.players.caps_caption"),
        [
          { key: "admin.col.limit", cell: limitName },
          { key: "admin.col.amount", num: true, cell: (c) => show.money(c.amount) },
        ],
        info.caps,
        { empty: "admin.players.no_caps" },
      ),
      capForm(player.id, name),
      dataTable(
        t("admin.players.history_caption", { page: history.page, pages: Math.max(history.pages, 1) }),
        [
          { key: "admin.col.round", name: "round", cell: (r) => `#${r.round_id}` },
          { key: "admin.col.table", cell: (r) => r.table_id },
          { key: "admin.col.time", cell: (r) => show.time(r.time_ms) },
          { key: "admin.col.phase", name: "phase", cell: (r) => show.badge(`admin.phase.${r.phase}`, r.phase) },
          { key: "admin.col.staked", num: true, cell: (r) => show.money(r.staked) },
          { key: "admin.col.returned", num: true, cell: (r) => show.money(r.returned) },
          { key: "admin.col.net", num: true, cell: (r) => show.money(r.net) },
          { key: "admin.col.balance_after", num: true, cell: (r) => show.money(r.balance_after) },
        ],
        history.rounds,
        { rowProps: (r) => ({ "data-round": String(r.round_id) }) },
      ),
      h(
        "div",
        { class: "admin-actions" },
        history.page > 1 && button(t("admin.newer"), () => open(player.id, history.page - 1)),
        history.page < history.pages && button(t("admin.older"), () => open(player.id, history.page + 1)),
        button(t("admin.refresh"), () => open(player.id, history.page)),
      ),
    );
    detail.hidden = false;
    title.focus();
  }

  /**
   * A pending increase of this limit, in words.
   * @param {any[]} pending
   * @param {any} limit
   */
  function pendingOf(pending, limit) {
    const found = pending.find((p) => p.kind === limit.kind && p.period === limit.period);
    return found
      ? t("admin.players.pending_to", { amount: show.money(found.amount), at: show.time(found.requested_at) })
      : "–";
  }

  /**
   * @param {string} id
   * @param {string} name
   */
  function capForm(id, name) {
    const kind = select(
      "kind",
      KINDS.map((k) => [k, t(`limit.kind.${k}`)]),
    );
    const period = select(
      "period",
      PERIODS.map((p) => [p, t(`limit.period.${p}`)]),
    );
    const amount = h("input", { name: "amount", inputmode: "decimal", placeholder: t("admin.players.cap_none") });
    return h(
      "form",
      {
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const minor = amount.value.trim() ? minorOf(amount.value) : null;
          if (amount.value.trim() && minor === null) {
            ctx.fail(new WordedError("admin.tables.bad_amount"));
            return;
          }
          const which = limitName({ kind: kind.value, period: period.value });
          withReason(
            ctx,
            t(minor === null ? "admin.players.cap_remove_title" : "admin.players.cap_title", {
              limit: which,
              name,
              amount: show.money(minor),
            }),
            t("admin.players.cap_set"),
            (reason) => adminApi.cap(id, { reason, kind: kind.value, period: period.value, amount: minor }),
            () => t("admin.players.cap_done", { limit: which, name }),
          ).then((answer) => answer && open(id));
        },
      },
      h(
        "fieldset",
        { class: "admin-form", disabled: !ctx.act },
        h("legend", { text: t("admin.players.cap_legend") }),
        h("p", { class: "admin-hint", text: t(ctx.act ? "admin.players.cap_intro" : "admin.read_only") }),
        h(
          "div",
          { class: "admin-form__row" },
          field("admin.players.kind", kind),
          field("admin.players.period", period),
          field("admin.col.amount", amount),
          h("button", { type: "submit", class: "btn btn--small", "data-act": "cap", text: t("admin.players.cap_set") }),
        ),
      ),
    );
  }

  main.replaceChildren(
    ...heading("admin.players.title", "admin.players.intro"),
    h(
      "form",
      {
        class: "admin-toolbar",
        role: "search",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          search();
        },
      },
      field("admin.players.search", q),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.find") }),
    ),
    list,
    detail,
  );
  if (arg) {
    q.value = arg;
    search();
    open(arg);
  }
  return {
    destroy() {
      gone = true;
    },
  };
}

// @ts-check
// Operators (provider mode): each casino operator whose wallet holds its players' money, as the
// game sees it. #/operators lists them with their outbox: the credits and rollbacks still to
// send (queued, retrying) or refused for good (failed). #/operators/<id> is one operator: its
// outbox, oldest first, where an admin sends a failed call again (with a reason, audited), and
// a period's reconciliation — the orphans first, the ledger's check, totals per round and per
// player, then every debit with the call that ended it. Amounts are in the operator's currency
// (rupiah without sen).

import { fill, h } from "../dom.js";
import { formatMoney, t } from "../i18n.js";
import { call, enc, query } from "./client.js";
import { actButton, button, dataTable, field, heading, select, show, withReason } from "./ui.js";

/** The wallet calls' routes (/api/admin/operators, docs/admin.md). */
const api = {
  operators: () => call("GET", "/api/admin/operators"),
  /** @param {string} id @param {Record<string, string | number | null>} filters */
  outbox: (id, filters) => call("GET", `/api/admin/operators/${enc(id)}/outbox${query(filters)}`),
  /** @param {string} id @param {Record<string, string | number | null>} filters */
  reconciliation: (id, filters) => call("GET", `/api/admin/operators/${enc(id)}/reconciliation${query(filters)}`),
  /** @param {string} id @param {string} callId @param {string} reason */
  retry: (id, callId, reason) =>
    call("POST", `/api/admin/operators/${enc(id)}/outbox/${enc(callId)}/retry`, { body: { reason } }),
};

/** The badge colour (admin.css) of a call's state. */
const LOOK = /** @type {Record<string, string>} */ ({
  queued: "in_play",
  retrying: "paused",
  failed: "failed",
  done: "verified",
  pending: "in_play",
  confirmed: "verified",
  refused: "closed",
  unknown: "failed",
});

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} [arg]  an operator's id: that operator
 */
export function mount(main, ctx, arg) {
  return arg ? operatorView(main, ctx, arg) : listView(main, ctx);
}

/**
 * A call's state in words, as a badge.
 * @param {any} c  a wallet call
 */
function stateBadge(c) {
  const state = c.outbox_state ?? c.state;
  return show.badge(`admin.operators.state.${state}`, LOOK[state] ?? state);
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 */
function listView(main, ctx) {
  let gone = false;
  const list = h("div", { class: "admin-block" });
  async function load() {
    try {
      const { operators } = await api.operators();
      if (gone) return;
      fill(
        list,
        dataTable(
          t("admin.operators.caption"),
          [
            {
              key: "admin.operators.col.operator",
              name: "operator",
              cell: (o) => h("a", { href: `#/operators/${encodeURIComponent(o.id)}`, text: `${o.name} (${o.id})` }),
            },
            { key: "admin.operators.col.currency", cell: (o) => o.currency },
            {
              key: "admin.col.status",
              cell: (o) =>
                o.disabled_at
                  ? show.badge("admin.operators.disabled", "closed")
                  : show.badge("admin.operators.active", "active"),
            },
            ...["queued", "retrying", "failed", "done"].map((state) => ({
              key: `admin.operators.state.${state}`,
              num: true,
              name: state,
              cell: (/** @type {any} */ o) => {
                const n = o.outbox[state];
                // Failed calls wait for a person: they stand out.
                return state === "failed" && n > 0 ? h("strong", { "data-failed": "" }, String(n)) : String(n);
              },
            })),
          ],
          operators,
          {
            empty: "admin.operators.none",
            rowProps: (o) => ({ "data-operator": o.id, "data-flag": o.outbox.failed > 0 ? "failed" : null }),
          },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }
  main.replaceChildren(
    ...heading("admin.operators.title", "admin.operators.intro"),
    h("div", { class: "admin-toolbar" }, button(t("admin.refresh"), load)),
    list,
  );
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 * @param {string} id
 */
function operatorView(main, ctx, id) {
  let gone = false;
  let currency = "";
  const money = (/** @type {number} */ minor) => (currency ? formatMoney(minor, currency) : show.money(minor));
  const title = h("h1", { class: "admin-title", tabindex: "-1", text: t("admin.operators.one", { id }) });
  const state = select("state", [
    ["", t("admin.operators.outstanding")],
    ["queued", t("admin.operators.state.queued")],
    ["retrying", t("admin.operators.state.retrying")],
    ["failed", t("admin.operators.state.failed")],
  ]);
  const outbox = h("div", { class: "admin-block", id: "operator-outbox" });
  const since = h("input", { name: "since", type: "date" });
  const until = h("input", { name: "until", type: "date" });
  const report = h("div", { class: "admin-block", id: "operator-reconciliation" });
  /** @type {any[]} */
  let rows = [];
  /** @type {string | null} */
  let next = null;

  /** @param {any} c */
  const retryButton = (c) =>
    c.state === "failed"
      ? actButton(
          { ...ctx, act: ctx.role === "admin" },
          t("admin.operators.retry"),
          () =>
            withReason(
              ctx,
              t("admin.operators.retry_title", { kind: t(`admin.operators.kind.${c.kind}`), amount: money(c.amount) }),
              t("admin.operators.retry"),
              (reason) => api.retry(id, c.id, reason),
              () => t("admin.operators.retried", { id: c.id }),
            ).then((answer) => answer && loadOutbox()),
          { name: "retry" },
        )
      : "–";

  function drawOutbox() {
    fill(
      outbox,
      dataTable(
        t("admin.operators.outbox_caption"),
        [
          { key: "admin.operators.col.call", cell: (c) => show.id(c.id) },
          { key: "admin.col.kind", cell: (c) => t(`admin.operators.kind.${c.kind}`) },
          { key: "admin.col.player", cell: (c) => show.player(c.player_id) },
          { key: "admin.col.round", num: true, cell: (c) => (c.round_id === null ? "–" : String(c.round_id)) },
          { key: "admin.col.amount", num: true, name: "amount", cell: (c) => money(c.amount) },
          { key: "admin.col.status", name: "state", cell: stateBadge },
          { key: "admin.operators.col.attempts", num: true, cell: (c) => String(c.attempts) },
          { key: "admin.operators.col.written", cell: (c) => show.time(c.created_at) },
          { key: "admin.operators.col.next", cell: (c) => show.time(c.next_attempt_at) },
          { key: "admin.operators.col.error", cell: (c) => c.last_error ?? "–" },
          { key: "admin.col.actions", cell: retryButton },
        ],
        rows,
        {
          empty: "admin.operators.outbox_empty",
          rowProps: (c) => ({ "data-call": c.id, "data-state": c.outbox_state }),
        },
      ),
      next === null ? null : button(t("admin.operators.more"), () => loadOutbox(true), { "data-read": "more" }),
    );
  }

  async function loadOutbox(more = false) {
    try {
      const page = await api.outbox(id, { state: state.value, limit: 50, after: more ? next : null });
      if (gone) return;
      currency = page.currency;
      rows = more ? [...rows, ...page.rows] : page.rows;
      next = page.next_after;
      drawOutbox();
    } catch (error) {
      ctx.fail(error);
    }
  }

  async function loadReport() {
    try {
      const found = await api.reconciliation(id, { since: since.value, until: until.value, limit: 200 });
      if (gone) return;
      currency = found.currency;
      fill(report, reconciliation(found, money));
    } catch (error) {
      ctx.fail(error);
    }
  }

  api
    .operators()
    .then(({ operators }) => {
      const found = operators.find((/** @type {any} */ o) => o.id === id);
      if (!gone && found) fill(title, t("admin.operators.one", { id: `${found.name} (${found.id})` }));
    })
    .catch(ctx.fail);

  main.replaceChildren(
    title,
    h("p", { class: "admin-intro", text: t("admin.operators.one_intro") }),
    h("p", null, h("a", { href: "#/operators", text: t("admin.operators.back") })),
    h("h2", { text: t("admin.operators.outbox_title") }),
    h(
      "div",
      { class: "admin-toolbar" },
      field("admin.operators.show", state),
      button(t("admin.refresh"), () => loadOutbox()),
    ),
    outbox,
    h("h2", { text: t("admin.operators.reconciliation_title") }),
    h(
      "form",
      {
        class: "admin-toolbar",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          loadReport();
        },
      },
      field("admin.reports.since", since),
      field("admin.reports.until", until),
      h("button", { type: "submit", class: "btn btn--small", text: t("admin.reports.run") }),
    ),
    h("p", { class: "admin-hint", text: t("admin.operators.period_hint") }),
    report,
  );
  state.addEventListener("change", () => loadOutbox());
  loadOutbox();
  loadReport();
  return {
    destroy() {
      gone = true;
    },
  };
}

/**
 * A period's reconciliation: the verdict and the ledger's check, the orphans, the totals per
 * round and per player, and the debits with the calls that ended them.
 * @param {any} found  a ReconciliationView
 * @param {(minor: number) => string} money
 */
function reconciliation(found, money) {
  const figures = [
    { key: "admin.operators.col.debits", num: true, cell: (/** @type {any} */ r) => String(r.debits) },
    {
      key: "admin.operators.col.debited",
      num: true,
      name: "debited",
      cell: (/** @type {any} */ r) => money(r.debited),
    },
    {
      key: "admin.operators.col.credited",
      num: true,
      name: "credited",
      cell: (/** @type {any} */ r) => money(r.credited),
    },
    { key: "admin.operators.col.rolled_back", num: true, cell: (/** @type {any} */ r) => money(r.rolled_back) },
    { key: "admin.operators.col.net", num: true, name: "net", cell: (/** @type {any} */ r) => money(r.net) },
  ];
  const more = (/** @type {number} */ shown, /** @type {number} */ total) =>
    total > shown ? h("p", { class: "admin-hint", text: t("admin.operators.first", { shown, total }) }) : null;
  const ledger = found.ledger;
  return [
    h("p", {
      class: "admin-verdict",
      "data-clean": String(found.clean),
      text: found.clean
        ? t("admin.operators.clean", { since: show.time(found.since), until: show.time(found.until) })
        : t("admin.operators.not_clean", { count: found.orphans_total }),
    }),
    h("p", {
      "data-ledger": String(ledger.ok),
      text: t(ledger.ok ? "admin.operators.ledger_ok" : "admin.operators.ledger_off", {
        ledger: money(ledger.ledger),
        expected: money(ledger.expected),
      }),
    }),
    dataTable(
      t("admin.operators.orphans_caption"),
      [
        { key: "admin.operators.col.orphan", name: "orphan", cell: (o) => t(`admin.operators.orphan.${o.kind}`) },
        { key: "admin.operators.col.call", cell: (o) => show.id(o.call.id) },
        { key: "admin.operators.col.debit", cell: (o) => show.id(o.debit_id) },
        { key: "admin.col.player", cell: (o) => show.player(o.call.player_id) },
        { key: "admin.col.round", num: true, cell: (o) => (o.call.round_id === null ? "–" : String(o.call.round_id)) },
        { key: "admin.col.amount", num: true, cell: (o) => money(o.call.amount) },
        { key: "admin.col.status", cell: (o) => stateBadge(o.call) },
        { key: "admin.operators.col.error", cell: (o) => o.call.last_error ?? "–" },
      ],
      found.orphans,
      { empty: "admin.operators.no_orphans", rowProps: (o) => ({ "data-orphan": o.kind, "data-flag": "orphan" }) },
    ),
    more(found.orphans.length, found.orphans_total),
    dataTable(t("admin.operators.total_caption"), figures, [found.total], { rowProps: () => ({ "data-total": "" }) }),
    dataTable(
      t("admin.operators.rounds_caption"),
      [
        { key: "admin.col.round", cell: (r) => (r.round_id === null ? "–" : String(r.round_id)) },
        { key: "admin.col.table", cell: (r) => r.table_id ?? "–" },
        ...figures,
      ],
      found.rounds,
      { rowProps: (r) => ({ "data-round": String(r.round_id) }) },
    ),
    more(found.rounds.length, found.rounds_total),
    dataTable(
      t("admin.operators.players_caption"),
      [
        { key: "admin.col.player", cell: (p) => show.player(p.player_id) },
        { key: "admin.operators.col.external", cell: (p) => p.external_id ?? "–" },
        ...figures,
      ],
      found.players,
      { rowProps: (p) => ({ "data-player": p.player_id }) },
    ),
    more(found.players.length, found.players_total),
    dataTable(
      t("admin.operators.lines_caption"),
      [
        { key: "admin.operators.col.debit", cell: (l) => show.id(l.debit.id) },
        { key: "admin.col.player", cell: (l) => show.player(l.debit.player_id) },
        {
          key: "admin.col.round",
          num: true,
          cell: (l) => (l.debit.round_id === null ? "–" : String(l.debit.round_id)),
        },
        { key: "admin.col.amount", num: true, cell: (l) => money(l.debit.amount) },
        { key: "admin.col.status", cell: (l) => stateBadge(l.debit) },
        { key: "admin.operators.col.end", cell: (l) => (l.end ? t(`admin.operators.kind.${l.end.kind}`) : "–") },
        { key: "admin.operators.col.end_amount", num: true, cell: (l) => (l.end ? money(l.end.amount) : "–") },
        { key: "admin.operators.col.end_state", cell: (l) => (l.end ? stateBadge(l.end) : "–") },
      ],
      found.lines,
      { rowProps: (l) => ({ "data-debit": l.debit.id }) },
    ),
    more(found.lines.length, found.lines_total),
  ];
}

// @ts-check
// Shoes: the newest shoes of every table (or one), each ended one verified as `baccarat verify`
// would verify its record, with what failed if anything; a link to each ended shoe's record.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { shoeRecordUrl } from "../api.js";
import { adminApi } from "./client.js";
import { button, dataTable, field, heading, select, show } from "./ui.js";

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 */
export function mount(main, ctx) {
  let gone = false;
  const table = select("table_id", [["", t("admin.all_tables")]]);
  const list = h("div", { class: "admin-block" });

  adminApi
    .tables()
    .then(({ tables }) => {
      for (const { id } of tables) table.append(h("option", { value: id, text: id }));
    })
    .catch(ctx.fail);

  async function load() {
    try {
      const { shoes } = await adminApi.shoes(table.value);
      if (gone) return;
      fill(
        list,
        dataTable(
          t("admin.shoes.caption"),
          [
            { key: "admin.col.shoe", cell: (s) => show.id(s.id) },
            { key: "admin.col.table", cell: (s) => s.table_id },
            { key: "admin.col.number", num: true, cell: (s) => String(s.number) },
            { key: "admin.col.decks", num: true, cell: (s) => String(s.decks) },
            { key: "admin.col.started", cell: (s) => show.time(s.started_at) },
            { key: "admin.col.ended", cell: (s) => show.time(s.ended_at) },
            { key: "admin.col.commitment", cell: (s) => show.id(s.commitment) },
            {
              key: "admin.col.verification",
              name: "verification",
              cell: (s) => [
                show.badge(`admin.verify.${s.verification}`, s.verification),
                s.failures.length > 0 &&
                  h(
                    "ul",
                    { class: "admin-failures" },
                    s.failures.map((f) => h("li", { text: f })),
                  ),
              ],
            },
            {
              key: "admin.col.record",
              cell: (s) =>
                s.status === "ended"
                  ? h("a", {
                      href: shoeRecordUrl(s.id),
                      download: `shoe-${s.id}.json`,
                      "aria-label": t("admin.shoes.record_of", { id: s.id }),
                      text: t("admin.shoes.record"),
                    })
                  : "–",
            },
          ],
          shoes,
          { rowProps: (s) => ({ "data-shoe": s.id }) },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  main.replaceChildren(
    ...heading("admin.shoes.title", "admin.shoes.intro"),
    h("div", { class: "admin-toolbar" }, field("admin.col.table", table), button(t("admin.refresh"), load)),
    list,
  );
  table.addEventListener("change", load);
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}

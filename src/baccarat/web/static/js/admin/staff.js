// @ts-check
// Staff: every member of staff and their role (everyone reads); admins create members and
// disable them, each with a reason. A disabled member's sessions end and they cannot log in.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { adminApi } from "./client.js";
import { actButton, dataTable, field, heading, select, show, withReason } from "./ui.js";

const ROLES = ["operator", "auditor", "admin"];

/**
 * @param {HTMLElement} main
 * @param {import("./ui.js").Ctx} ctx
 */
export function mount(main, ctx) {
  let gone = false;
  // Managing staff is the admins' alone: operators read here, like auditors.
  const admin = { ...ctx, act: ctx.role === "admin" };
  const list = h("div", { class: "admin-block" });

  async function load() {
    try {
      const { staff } = await adminApi.staff();
      if (gone) return;
      fill(
        list,
        dataTable(
          t("admin.staff.caption"),
          [
            { key: "admin.col.username", cell: (m) => h("strong", { text: m.username }) },
            { key: "admin.staff.role", cell: (m) => t(`admin.role.${m.role}`) },
            { key: "admin.col.created", cell: (m) => show.time(m.created_at) },
            {
              key: "admin.col.status",
              cell: (m) =>
                m.disabled_at
                  ? [show.badge("admin.staff.disabled", "locked"), " ", show.time(m.disabled_at)]
                  : show.badge("admin.account.active", "active"),
            },
            {
              key: "admin.col.actions",
              cell: (m) =>
                actButton(admin, t("admin.staff.disable"), () => disable(m.username), {
                  name: "disable",
                  danger: true,
                  enabled: !m.disabled_at,
                }),
            },
          ],
          staff,
          { rowProps: (m) => ({ "data-staff": m.username }) },
        ),
      );
    } catch (error) {
      ctx.fail(error);
    }
  }

  /** @param {string} username */
  function disable(username) {
    withReason(
      admin,
      t("admin.staff.disable_title", { name: username }),
      t("admin.staff.disable"),
      (reason) => adminApi.disableStaff(username, reason),
      (answer) => t("admin.staff.disabled_done", { name: answer.username }),
    ).then((answer) => answer && load());
  }

  const username = h("input", { name: "new_username", maxlength: "32", autocomplete: "off", required: true });
  const role = select(
    "new_role",
    ROLES.map((r) => [r, t(`admin.role.${r}`)]),
    "auditor",
  );
  const password = h("input", { name: "new_password", type: "password", autocomplete: "new-password", required: true });
  const form = h(
    "form",
    {
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const name = username.value.trim();
        withReason(
          admin,
          t("admin.staff.create_title", { name, role: t(`admin.role.${role.value}`) }),
          t("admin.staff.create"),
          (reason) => adminApi.createStaff({ username: name, role: role.value, password: password.value, reason }),
          (answer) => t("admin.staff.created", { name: answer.username, role: t(`admin.role.${answer.role}`) }),
        ).then((answer) => {
          if (!answer) return;
          username.value = "";
          password.value = "";
          load();
        });
      },
    },
    h(
      "fieldset",
      { class: "admin-form", disabled: !admin.act },
      h("legend", { text: t("admin.staff.create_legend") }),
      h("p", { class: "admin-hint", text: t(admin.act ? "admin.staff.create_intro" : "admin.staff.admins_only") }),
      h(
        "div",
        { class: "admin-form__row" },
        field("admin.col.username", username),
        field("admin.staff.role", role),
        field("auth.password", password),
        h("button", {
          type: "submit",
          class: "btn btn--small",
          "data-act": "create-staff",
          text: t("admin.staff.create"),
        }),
      ),
    ),
  );

  main.replaceChildren(...heading("admin.staff.title", "admin.staff.intro"), list, form);
  load();
  return {
    destroy() {
      gone = true;
    },
  };
}

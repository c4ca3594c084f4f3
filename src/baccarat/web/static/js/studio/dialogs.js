// @ts-check
// The console's one dialog: what is about to be done, in words, its fields (a reason for
// everything the audit log keeps; a card; a shuffle certificate) checked in the page, and the
// confirming button (red for what cannot be undone). A modal <dialog>: Escape or Cancel
// dismisses it, and no card is read while it is open.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * A field of the dialog: its name, label and how it is checked (`check` returns an error's
 * words, or null).
 * @typedef {object} Field
 * @property {string} name
 * @property {string} label  in words
 * @property {string} [value]
 * @property {"text" | "number"} [type]
 * @property {Record<string, string>} [attrs]  min, max, maxlength, inputmode, autocapitalize…
 * @property {(value: string) => string | null} [check]
 */

/**
 * What the dialog says and asks.
 * @typedef {object} Spec
 * @property {string} title
 * @property {string} [intro]
 * @property {string} [warning]  a line in red (what cannot be undone)
 * @property {Field[]} [fields]
 * @property {boolean} [reason]  ask for a reason (1-200 characters, kept in the audit log)
 * @property {string} confirm  the confirming button's words
 * @property {boolean} [danger]
 * @property {string} [name]  data-dialog, for tests and styles
 */

let opened = 0;

/** @returns {boolean} whether one of the console's dialogs is open */
export function dialogOpen() {
  return document.querySelector("dialog[open]") !== null;
}

/**
 * Ask: resolves to the fields' values (trimmed; `reason` among them when asked), or null when
 * dismissed.
 * @param {Spec} spec
 * @returns {Promise<Record<string, string> | null>}
 */
export function ask(spec) {
  const id = `studio-dialog-${++opened}`;
  /** @type {Field[]} */
  const fields = [...(spec.fields ?? [])];
  if (spec.reason) {
    fields.push({
      name: "reason",
      label: t("studio.dialog.reason"),
      attrs: { maxlength: "200", autocomplete: "off" },
      check: (value) => (value ? null : t("studio.dialog.reason_missing")),
    });
  }
  return new Promise((resolve) => {
    const error = h("p", { class: "studio-dialog__error", id: `${id}-error`, role: "alert" });
    /** @type {Map<string, HTMLInputElement>} */
    const inputs = new Map();
    const rows = fields.map((field) => {
      const input = h("input", {
        id: `${id}-${field.name}`,
        name: field.name,
        type: field.type ?? "text",
        value: field.value ?? "",
        autocomplete: "off",
        ...(field.attrs ?? {}),
      });
      inputs.set(field.name, input);
      return h("label", { class: "studio-dialog__field", for: input.id }, h("span", { text: field.label }), input);
    });
    let answer = /** @type {Record<string, string> | null} */ (null);
    const dialog = h(
      "dialog",
      { class: "studio-dialog", "aria-labelledby": `${id}-title`, "data-dialog": spec.name ?? "" },
      h(
        "form",
        {
          method: "dialog",
          novalidate: true,
          onsubmit: (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            /** @type {Record<string, string>} */
            const values = {};
            for (const field of fields) {
              const input = /** @type {HTMLInputElement} */ (inputs.get(field.name));
              const value = input.value.trim();
              const wrong = field.check?.(value) ?? null;
              input.toggleAttribute("aria-invalid", Boolean(wrong));
              if (wrong) {
                input.setAttribute("aria-describedby", error.id);
                fill(error, wrong);
                input.focus();
                return;
              }
              input.removeAttribute("aria-describedby");
              values[field.name] = value;
            }
            answer = values;
            dialog.close();
          },
        },
        h("h2", { id: `${id}-title`, text: spec.title }),
        spec.intro && h("p", { class: "studio-dialog__intro", text: spec.intro }),
        spec.warning && h("p", { class: "studio-dialog__warning", text: spec.warning }),
        rows,
        error,
        h(
          "div",
          { class: "studio-dialog__buttons" },
          h("button", {
            type: "button",
            class: "btn btn--ghost studio-btn",
            onclick: () => dialog.close(),
            text: t("studio.dialog.cancel"),
          }),
          h("button", {
            type: "submit",
            class: `btn studio-btn ${spec.danger ? "studio-btn--danger" : "btn--gold"}`,
            "data-confirm": "",
            text: spec.confirm,
          }),
        ),
      ),
    );
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    document.body.append(dialog);
    dialog.showModal();
    const first = rows.length ? inputs.get(fields[0].name) : dialog.querySelector("[data-confirm]");
    /** @type {HTMLElement | null | undefined} */ (first)?.focus();
  });
}

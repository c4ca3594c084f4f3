// @ts-check
// The fairness panel: the current shoe's commitment (published before its first bet) and,
// once a shoe has ended, its revealed seed, its record and the command that checks it.

import { fill, h } from "./dom.js";
import { api, shoeRecordUrl } from "./api.js";

const VERIFY = "baccarat verify record.json";

/**
 * A button that copies `text` to the clipboard.
 * @param {string} text
 * @param {string} what  what it copies, for its label
 */
function copyButton(text, what) {
  const button = h(
    "button",
    {
      type: "button",
      class: "btn btn--small btn--ghost",
      "aria-label": `Copy ${what}`,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = "Copied";
        } catch {
          button.textContent = "Select and copy";
        }
        window.setTimeout(() => {
          button.textContent = "Copy";
        }, 1500);
      },
    },
    "Copy",
  );
  return button;
}

/**
 * @param {string} label
 * @param {string | null | undefined} value
 */
function hexRow(label, value) {
  return h(
    "div",
    { class: "fair__row" },
    h("dt", {}, label),
    h("dd", {}, h("code", { class: "fair__hex" }, value ?? "–"), value ? copyButton(value, label.toLowerCase()) : null),
  );
}

/**
 * Save the shoe's record (GET /api/shoes/{id}/record) as record.json.
 * @param {string} shoeId
 * @param {HTMLElement} button  the Download button, busy meanwhile
 */
async function downloadRecord(shoeId, button) {
  button.setAttribute("aria-busy", "true");
  try {
    const record = await api.shoeRecord(shoeId);
    const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "record.json", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    button.textContent = `Cannot download: ${error.message}`;
  } finally {
    button.removeAttribute("aria-busy");
  }
}

/** The panel; returns {el, update(shoe, finished)}. */
export function fairnessPanel() {
  const current = h("dl", { class: "fair__list" });
  const revealed = h("div", { class: "fair__revealed" });
  /** @type {string | null} */
  let shown = null;
  const el = h(
    "details",
    { class: "panel fair", open: true },
    h("summary", { class: "panel-title" }, "Provably fair"),
    h(
      "p",
      { class: "fair__intro" },
      "The shoe's order is fixed by a secret seed before the first bet. Its SHA-256 commitment is below; the seed is revealed when the shoe ends.",
    ),
    current,
    revealed,
  );

  return {
    el,
    /**
     * shoe: {id, commitment, cards_left, algorithm}; finished: {id, server_seed} or null.
     * @param {any} shoe
     * @param {any} finished
     */
    update(shoe, finished) {
      // Redraw only on a change, so a focused Copy button keeps its focus while events arrive.
      const key = JSON.stringify([shoe?.id, shoe?.commitment, finished?.id, finished?.server_seed]);
      if (key === shown) return;
      shown = key;
      fill(
        current,
        h(
          "div",
          { class: "fair__row" },
          h("dt", {}, "Shoe"),
          h(
            "dd",
            { dataset: { shoe: shoe?.id ?? "" } },
            h("code", {}, shoe?.id ?? "–"),
            shoe?.algorithm ? h("span", { class: "fair__algo" }, shoe.algorithm) : null,
          ),
        ),
        hexRow("Commitment", shoe?.commitment),
      );
      if (!finished?.server_seed) {
        fill(revealed);
        return;
      }
      fill(
        revealed,
        h("h3", { class: "fair__heading" }, `Shoe ${finished.id} ended: seed revealed`),
        h("dl", { class: "fair__list" }, hexRow("Server seed", finished.server_seed)),
        h(
          "p",
          { class: "fair__links" },
          h(
            "button",
            {
              type: "button",
              class: "btn btn--small btn--gold",
              onclick: (/** @type {MouseEvent} */ event) =>
                downloadRecord(finished.id, /** @type {HTMLElement} */ (event.currentTarget)),
            },
            "Download record.json",
          ),
          h(
            "a",
            { href: shoeRecordUrl(finished.id), class: "fair__link", target: "_blank", rel: "noopener" },
            shoeRecordUrl(finished.id),
          ),
        ),
        h(
          "p",
          { class: "fair__verify" },
          "Check it yourself: ",
          h("code", {}, VERIFY),
          copyButton(VERIFY, "the verify command"),
        ),
      );
    },
  };
}

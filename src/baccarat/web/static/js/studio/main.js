// @ts-check
// The dealer's console's entry point (/studio): the language (the page's catalogues and the
// console's own, studio/messages), the staff login (the back office's: admin/client.js keeps
// the token in this tab), the choice of a studio table and its console:
//   #/               the studio tables (GET /api/tables, those whose mode is "studio")
//   #/tables/{id}    the console of one (console.js)
// Dealers, operators and admins run it; the server checks every request anyway.

import { announce, fill, h } from "../dom.js";
import { addCatalogues, bindMarked, language, onLanguage, preferredLanguage, setLanguage, t } from "../i18n.js";
import { tableName } from "../model.js";
import { adminApi, staff } from "../admin/client.js";
import { studioApi } from "./client.js";
import { mountConsole, refusalWords } from "./console.js";

await addCatalogues({
  en: () => import("./messages/en.js"),
  id: () => import("./messages/id.js"),
});
await setLanguage(preferredLanguage(), { remember: false }).catch(() => setLanguage("en", { remember: false }));
bindMarked(document);

const RUNS = new Set(["dealer", "operator", "admin"]);
const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const user = /** @type {HTMLElement} */ (document.getElementById("staff-user"));
const logout = /** @type {HTMLButtonElement} */ (document.getElementById("staff-logout"));
const change = /** @type {HTMLAnchorElement} */ (document.getElementById("change-table"));
const place = /** @type {HTMLElement} */ (document.getElementById("studio-table"));
const feedStatus = /** @type {HTMLElement} */ (document.getElementById("studio-feed"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("studio-status"));
const alertLine = /** @type {HTMLElement} */ (document.getElementById("studio-alert"));

/** @type {{destroy(): void} | null} */
let view = null;

/**
 * A line under the top bar: what happened (or, `error`, what was refused).
 * @param {string | (string | Node)[]} words
 * @param {{error?: boolean}} [options]
 */
function line(words, { error = false } = {}) {
  fill(error ? statusLine : alertLine);
  fill(error ? alertLine : statusLine, words);
}

/** The table shown (from the address), or "". */
function tableInAddress() {
  const found = /^#\/tables\/(.+)$/.exec(window.location.hash);
  return found ? decodeURIComponent(found[1]) : "";
}

/** The top bar: who is logged in, the table, the switch back to the list. */
function showStaff() {
  const who = staff.current;
  const table = tableInAddress();
  user.hidden = logout.hidden = !who;
  change.hidden = !who || !table;
  place.hidden = !who || !table;
  if (who) fill(user, t("studio.who", { name: who.username, role: t(`studio.role.${who.role}`) }));
  fill(place, table);
  document.title = table && who ? t("studio.page_title_table", { table }) : t("studio.page_title");
}

/**
 * The feed's status in the top bar ("" once no console is shown).
 * @param {string} status
 */
function showFeed(status) {
  feedStatus.hidden = !status;
  feedStatus.dataset.status = status;
  fill(feedStatus, status ? t(`connection.${status}`) : "");
  feedStatus.title = status ? t("studio.feed", { status: t(`connection.${status}`) }) : "";
}

/** A session that ended (expired, logged out elsewhere): back to the login form. */
function loggedOut() {
  staff.clear();
  route();
  line(t("studio.error.unauthorized"), { error: true });
}

function loginView() {
  const username = h("input", {
    id: "login-username",
    name: "username",
    autocomplete: "username",
    autocapitalize: "off",
    required: true,
    maxlength: "40",
  });
  const password = h("input", {
    id: "login-password",
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const form = h(
    "form",
    {
      class: "studio-login panel",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        try {
          const answer = await adminApi.login(username.value.trim(), password.value);
          staff.save({ token: answer.token, username: answer.username, role: answer.role });
          if (!RUNS.has(answer.role)) {
            // Not a role that runs the console: that session ends at once, and is said to have
            // ended once it has (nothing of it left in this tab).
            await adminApi.logout().catch(() => {});
            staff.clear();
            line(t("studio.login.role", { role: t(`studio.role.${answer.role}`) }), { error: true });
            password.value = "";
            return;
          }
          if (!tableInAddress()) line(t("studio.login.welcome", { name: answer.username }));
          route();
        } catch (error) {
          line(refusalWords(error), { error: true });
          password.value = "";
          password.focus();
        }
      },
    },
    h("h1", { class: "studio-title", tabindex: "-1", text: t("studio.login.title") }),
    h("p", { class: "studio-intro", text: t("studio.login.intro") }),
    h("label", { class: "studio-field", for: username.id }, h("span", { text: t("auth.username") }), username),
    h("label", { class: "studio-field", for: password.id }, h("span", { text: t("auth.password") }), password),
    h("button", { type: "submit", class: "btn btn--gold studio-btn", text: t("studio.login.submit") }),
  );
  main.replaceChildren(form);
  username.focus();
  return { destroy() {} };
}

function chooserView() {
  const list = h("ul", { class: "studio-tables", "aria-busy": "true" });
  const heading = h("h1", { class: "studio-title", tabindex: "-1", text: t("studio.tables.title") });
  main.replaceChildren(
    h(
      "div",
      { class: "studio-chooser" },
      heading,
      h("p", { class: "studio-intro", text: t("studio.tables.intro") }),
      list,
    ),
  );
  heading.focus();
  let gone = false;
  studioApi
    .tables()
    .then((/** @type {any[]} */ tables) => {
      if (gone) return;
      const studios = tables.filter((table) => table?.settings?.mode === "studio");
      list.removeAttribute("aria-busy");
      if (!studios.length) {
        fill(list, h("li", { class: "studio-empty", text: t("studio.tables.none") }));
        return;
      }
      fill(
        list,
        studios.map((table) => {
          const dealer = table.studio?.dealer;
          return h(
            "li",
            null,
            h(
              "a",
              { class: "studio-table-link", href: `#/tables/${encodeURIComponent(table.id)}`, "data-table": table.id },
              h("span", { class: "studio-table-link__id", text: table.id }),
              h("span", { class: "studio-table-link__name", text: tableName(table) }),
              h("span", {
                class: "studio-table-link__seat",
                text: dealer ? t("studio.tables.seated", { name: dealer }) : t("studio.tables.nobody"),
              }),
            ),
          );
        }),
      );
      /** @type {HTMLElement | null} */ (list.querySelector("a"))?.focus();
    })
    .catch((error) => {
      list.removeAttribute("aria-busy");
      line(refusalWords(error), { error: true });
    });
  return {
    destroy() {
      gone = true;
    },
  };
}

function route() {
  view?.destroy();
  view = null;
  showStaff();
  showFeed("");
  const who = staff.current;
  if (!who || !RUNS.has(who.role)) {
    // A back-office token of this tab whose role does not run the console (an auditor's).
    if (who) line(t("studio.login.role", { role: t(`studio.role.${who.role}`) }), { error: true });
    view = loginView();
    return;
  }
  const table = tableInAddress();
  view = table ? mountConsole(main, { who, loggedOut, feed: showFeed }, table) : chooserView();
}

logout.addEventListener("click", async () => {
  try {
    await adminApi.logout();
  } catch {
    // The session is gone from this tab either way.
  }
  staff.clear();
  window.history.replaceState(null, "", "#/");
  route();
  line(t("studio.logged_out"));
});
window.addEventListener("hashchange", () => {
  line("");
  route();
  window.scrollTo(0, 0);
});

route();

// The language switch: EN / ID, remembered on this device (the other pages share it).
const switches = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-lang]"));
function showLanguage() {
  for (const button of switches) button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
}
for (const button of switches) button.addEventListener("click", () => setLanguage(button.dataset.lang ?? "en"));
showLanguage();
onLanguage(() => {
  showLanguage();
  line("");
  route();
  announce(t("lang.changed"));
});

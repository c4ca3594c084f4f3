// @ts-check
// The back office's entry point (/admin): the language (the page's catalogues and the back
// office's own, admin/messages), the staff login, and a hash router between the sections:
//   #/tables  #/monitor  #/shifts  #/rounds  #/players  #/shoes  #/audit  #/reports  #/integrity
//   #/staff  #/operators
// Each section's module is fetched when it is first shown. What a role may not do is disabled
// (auditors read only); the server checks every request anyway.

import { announce, fill, h } from "../dom.js";
import {
  addCatalogues,
  bindMarked,
  language,
  onLanguage,
  preferredLanguage,
  setCurrency,
  setLanguage,
  t,
} from "../i18n.js";
import { adminApi, mayAct, staff } from "./client.js";
import { field, lines, refusal } from "./ui.js";

await addCatalogues({
  en: () => import("./messages/en.js"),
  id: () => import("./messages/id.js"),
});
const configured = adminApi.config().then(
  (/** @type {any} */ config) => setCurrency(config?.currency, config?.minor_unit),
  () => {},
);
await setLanguage(preferredLanguage(), { remember: false }).catch(() => setLanguage("en", { remember: false }));
await configured;
bindMarked(document);

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const nav = /** @type {HTMLElement} */ (document.getElementById("admin-nav"));
const user = /** @type {HTMLElement} */ (document.getElementById("staff-user"));
const logout = /** @type {HTMLButtonElement} */ (document.getElementById("staff-logout"));

/** @type {Record<string, () => Promise<{mount: (main: HTMLElement, ctx: import("./ui.js").Ctx, arg?: string) => {destroy(): void}}>>} */
const SECTIONS = {
  tables: () => import("./tables.js"),
  monitor: () => import("./monitor.js"),
  shifts: () => import("./shifts.js"),
  rounds: () => import("./rounds.js"),
  players: () => import("./players.js"),
  shoes: () => import("./shoes.js"),
  audit: () => import("./audit.js"),
  reports: () => import("./reports.js"),
  integrity: () => import("./integrity.js"),
  staff: () => import("./staff.js"),
  operators: () => import("./operators.js"),
};

/** @type {{destroy(): void} | null} */
let view = null;
let routing = 0;

/** The member of staff logged in, in the top bar; the sections' links. */
function showStaff() {
  const who = staff.current;
  nav.hidden = !who;
  user.hidden = !who;
  logout.hidden = !who;
  if (who) fill(user, t("admin.who", { name: who.username, role: t(`admin.role.${who.role}`) }));
  document.title = t("admin.page_title");
}

/** A session that ended (expired, or logged out elsewhere): back to the login form. */
function loggedOut() {
  staff.clear();
  showStaff();
  route();
}

/** @returns {import("./ui.js").Ctx} */
function context() {
  const role = staff.current?.role ?? "";
  return {
    role,
    act: mayAct(role),
    say: (text) => lines.say(text),
    fail: (error) => {
      if (/** @type {any} */ (error)?.status === 401) loggedOut();
      lines.fail(error);
    },
  };
}

function loginView() {
  const username = h("input", { name: "username", autocomplete: "username", required: true, maxlength: "40" });
  const password = h("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const form = h(
    "form",
    {
      class: "admin-login panel",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        try {
          const answer = await adminApi.login(username.value.trim(), password.value);
          staff.save({ token: answer.token, username: answer.username, role: answer.role });
          lines.say(t("admin.login.welcome", { name: answer.username, role: t(`admin.role.${answer.role}`) }));
          showStaff();
          if (window.location.hash.startsWith("#/") && window.location.hash.length > 2) route();
          else window.location.hash = "#/tables";
        } catch (error) {
          lines.fail(error);
          password.value = "";
          password.focus();
        }
      },
    },
    h("h1", { class: "admin-title", tabindex: "-1", text: t("admin.login.title") }),
    h("p", { class: "admin-intro", text: t("admin.login.intro") }),
    field("auth.username", username),
    field("auth.password", password),
    h("button", { type: "submit", class: "btn btn--gold", text: t("admin.login.submit") }),
  );
  main.replaceChildren(form);
  return { destroy() {} };
}

function route() {
  view?.destroy();
  view = null;
  const mine = ++routing;
  showStaff();
  if (!staff.current) {
    view = loginView();
    return;
  }
  const [, name = "tables", arg] = /^#\/([a-z]+)(?:\/(.+))?$/.exec(window.location.hash) ?? [];
  const section = Object.hasOwn(SECTIONS, name) ? name : "tables";
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (nav.querySelectorAll("[data-nav]"))) {
    if (link.dataset.nav === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  main.replaceChildren();
  main.setAttribute("aria-busy", "true");
  SECTIONS[section]()
    .then(({ mount }) => {
      if (mine === routing) view = mount(main, context(), arg === undefined ? undefined : decodeURIComponent(arg));
    })
    .catch((error) => lines.fail(error))
    .finally(() => {
      if (mine === routing) main.removeAttribute("aria-busy");
    });
}

/** After a navigation the focus goes to the section's heading (drawn when its data came). */
function focusHeading() {
  main.focus({ preventScroll: true });
  const land = () => {
    const heading = /** @type {HTMLElement | null} */ (main.querySelector("h1"));
    heading?.focus({ preventScroll: true });
    return heading !== null;
  };
  if (land()) return;
  const watch = new MutationObserver(() => {
    if (land()) watch.disconnect();
  });
  watch.observe(main, { childList: true, subtree: true });
  window.setTimeout(() => watch.disconnect(), 10_000);
}

logout.addEventListener("click", async () => {
  try {
    await adminApi.logout();
  } catch {
    // The session is gone either way.
  }
  staff.clear();
  // No hashchange (it would clear the line that says so): the address and the view directly.
  window.history.replaceState(null, "", "#/");
  route();
  lines.say(t("admin.logged_out"));
});
window.addEventListener("hashchange", () => {
  lines.clear();
  route();
  window.scrollTo(0, 0);
  focusHeading();
});

// A token kept in this tab may have expired: ask who it is before showing anything.
if (staff.current) {
  try {
    const me = await adminApi.me();
    staff.save({ ...staff.current, username: me.username, role: me.role });
  } catch (error) {
    staff.clear();
    if (/** @type {any} */ (error)?.status !== 401) lines.say(refusal(error));
  }
}
route();

// The language switch: EN / ID, remembered on this device (the player's page shares it).
const switches = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-lang]"));
function showLanguage() {
  for (const button of switches) button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
}
for (const button of switches) button.addEventListener("click", () => setLanguage(button.dataset.lang ?? "en"));
showLanguage();
onLanguage(() => {
  showLanguage();
  lines.reword();
  route();
  announce(t("lang.changed"));
});

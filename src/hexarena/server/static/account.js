// The signed-in account: who it is, the header's account links, the sign-in page (#/login) and the account page
// (#/account), and the account's live feed (the count of matches where it is my move, in the title).
import * as api from "./api.js";
import { h } from "./dom.js";
import { ratingsTable } from "./ratings.js";

let current; // undefined: not asked yet; null: signed out; {name, ...}: signed in
let asking = null;
const listeners = new Set();
let feed = null;
let latest = null; // the feed's last message

// The account ({name, ratings}) or null, asked of the server once.
export function me() {
  if (current !== undefined) return Promise.resolve(current);
  asking ??= api.account().then((a) => a, (e) => {
    if (e.status === 401) return null;
    throw e;
  }).then((a) => {
    asking = null;
    setAccount(a);
    return a;
  }, (e) => {
    asking = null;
    throw e;
  });
  return asking;
}

// onChange(account or null, feed message or null) now and whenever either changes; returns an unsubscribe.
export function onAccount(onChange) {
  listeners.add(onChange);
  if (current !== undefined) onChange(current, latest);
  return () => listeners.delete(onChange);
}

function setAccount(a) {
  current = a;
  if (feed) feed();
  feed = null;
  latest = null;
  if (a) feed = api.accountLive((msg) => {
    const before = latest;
    latest = msg;
    announce(before, msg);
    tell();
  });
  tell();
}

function tell() {
  const count = latest && typeof latest.count === "number" ? latest.count : 0;
  document.title = count ? `(${count}) hexarena` : "hexarena";
  for (const fn of listeners) fn(current, latest);
}

// Browser notifications (opt-in, kept per browser): a move or a challenge that arrives.
const NOTIFY = "hexarena.notify";
export const notifying = () => localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";
export async function setNotifying(on) {
  if (on && "Notification" in window && Notification.permission !== "granted") await Notification.requestPermission();
  localStorage.setItem(NOTIFY, on && "Notification" in window && Notification.permission === "granted" ? "on" : "off");
  return notifying();
}

function announce(before, now) {
  if (!before || !notifying() || document.visibilityState === "visible") return;
  const ids = (list) => new Set((list || []).map((x) => x.id));
  const turns = ids(before.turn);
  const fresh = (now.turn || []).filter((m) => !turns.has(m.id));
  const asked = ids(before.challenges);
  const challenges = (now.challenges || []).filter((c) => !asked.has(c.id) && c.to === (current && current.name));
  for (const m of fresh) new Notification("hexarena: your move", { body: `${m.game}: ${m.status || ""}`, tag: `move-${m.id}` });
  for (const c of challenges) new Notification("hexarena: a challenge", { body: `${c.by} challenges you to ${c.game}`, tag: `seek-${c.id}` });
}

async function signIn(how, name, password) {
  const a = how === "register" ? await api.register(name, password) : await api.login(name, password);
  current = undefined;
  return me().then((x) => x || a);
}

export async function signOut() {
  await api.logout();
  setAccount(null);
}

// The header's links: "Sign in", or the account's name, "My games (N)" and "Sign out".
export function accountLinks(holder) {
  onAccount((a, msg) => {
    if (!a) {
      holder.replaceChildren(h("a", { href: "#/login", id: "signin-link" }, "Sign in"));
      return;
    }
    const count = msg && msg.count ? msg.count : 0;
    holder.replaceChildren(
      h("a", { href: "#/my", id: "mygames-link" }, "My games", count ? h("span.badge", { id: "turn-count" }, String(count)) : null),
      h("a", { href: `#/@/${encodeURIComponent(a.name)}`, id: "me-link" }, a.name),
      h("a", { href: "#/account" }, "Account"),
      h("button.linklike", { type: "button", id: "signout", onclick: () => signOut().then(() => { location.hash = "#/"; }) }, "Sign out"));
  });
  me().catch(() => {});
}

function credentialsForm(how) {
  const title = how === "register" ? "Create an account" : "Sign in";
  const name = h("input", { id: `${how}-name`, name: "name", autocomplete: "username", required: true, minLength: 3, maxLength: 20, pattern: "[A-Za-z0-9_\\-]{3,20}" });
  const password = h("input", { id: `${how}-password`, name: "password", type: "password", required: true, minLength: 8, maxLength: 256, autocomplete: how === "register" ? "new-password" : "current-password" });
  const err = h("p.error", { role: "alert" });
  const form = h("form.signin", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      try {
        await signIn(how, name.value.trim(), password.value);
        location.hash = "#/my";
      } catch (e) {
        err.textContent = e.message;
      }
    },
  },
  h("h2", {}, title),
  h("div.field", {}, h("label", { for: `${how}-name` }, "Name"), name,
    how === "register" ? h("small.muted", {}, "3 to 20 letters, digits, _ or -") : null),
  h("div.field", {}, h("label", { for: `${how}-password` }, "Password"), password,
    how === "register" ? h("small.muted", {}, "at least 8 characters") : null),
  h("button.primary", { type: "submit", id: `${how}-submit` }, title),
  err);
  return form;
}

export function showLogin(root) {
  root.append(h("div.signin-page", {},
    h("section.card", {}, credentialsForm("login")),
    h("section.card", {}, credentialsForm("register"),
      h("p.muted.small", {}, "No e-mail needed. The games you play as a guest in this browser become your account's."))));
  return null;
}

function passwordForm() {
  const old = h("input", { id: "pw-old", type: "password", autocomplete: "current-password", required: true });
  const nw = h("input", { id: "pw-new", type: "password", autocomplete: "new-password", required: true, minLength: 8 });
  const note = h("p.error", { role: "alert" });
  return h("form", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await api.changePassword(old.value, nw.value);
        note.textContent = "Password changed; your other sessions are signed out.";
      } catch (e) {
        note.textContent = e.message;
      }
    },
  }, h("h3", {}, "Change password"),
  h("div.field", {}, h("label", { for: "pw-old" }, "Current password"), old),
  h("div.field", {}, h("label", { for: "pw-new" }, "New password"), nw),
  h("button", { type: "submit" }, "Change password"), note);
}

function emailForm(a) {
  const email = h("input", { id: "email", type: "email", value: a.email || "", maxLength: 254 });
  const note = h("p.muted.small", { role: "status" }, a.email ? (a.email_verified ? "verified" : "not verified yet: follow the link we sent") : "");
  return h("form", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await api.setEmail(email.value.trim());
        note.textContent = email.value.trim() ? "Saved: follow the link we sent to verify it." : "Removed.";
      } catch (e) {
        note.textContent = e.message;
      }
    },
  }, h("h3", {}, "E-mail (optional)"),
  h("p.muted.small", {}, "Where the server, when set up to send mail, tells you of your move and of challenges (at most one a match an hour)."),
  h("div.field", {}, h("label", { for: "email" }, "Address"), email),
  h("button", { type: "submit" }, "Save"), note);
}

function deleteForm() {
  const pw = h("input", { id: "del-password", type: "password", autocomplete: "current-password", required: true });
  const note = h("p.error", { role: "alert" });
  return h("form", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      if (!window.confirm("Delete your account? Your matches stay, under the name '(deleted)'.")) return;
      try {
        await api.deleteAccount(pw.value);
        setAccount(null);
        location.hash = "#/";
      } catch (e) {
        note.textContent = e.message;
      }
    },
  }, h("h3", {}, "Delete the account"),
  h("p.muted.small", {}, "Your matches stay; your name shows as (deleted) and is not given to anyone else."),
  h("div.field", {}, h("label", { for: "del-password" }, "Password"), pw),
  h("button.danger", { type: "submit" }, "Delete my account"), note);
}

export function showAccount(root) {
  const card = h("section.card.account-page", {}, h("p.muted", {}, "Loading…"));
  root.append(card);
  api.account().then((a) => { // asked afresh: the ratings change as games end
    card.replaceChildren(h("h2", {}, `Account: ${a.name}`), h("h3", {}, "My ratings"), ratingsTable(a.ratings, "my-ratings"),
      passwordForm(), emailForm(a), deleteForm());
  }).catch((e) => {
    if (e.status === 401) location.hash = "#/login";
    else card.replaceChildren(h("p.error", {}, e.message));
  });
  return null;
}

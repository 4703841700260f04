// #/events: the events, upcoming, running or finished (tabs), of every game or one; the form that creates one.
import * as api from "../api.js";
import { onAccount } from "../account.js";
import { cap, h } from "../dom.js";
import { eventHref, listEvents } from "./calls.js";
import { createForm } from "./create.js";
import { head } from "./tables.js";
import { clockText, formatText, roundText, STATUSES, startsText } from "./words.js";

let shownStatus = "upcoming"; // the tab shown, kept while the page is left and come back to

const COLUMNS = ["Name", "Game", "Format", "Clock", { text: "Players", num: true }, { text: "Round", num: true }, "Starts"];

function eventRow(e) {
  return h("tr", { dataset: { event: e.id } },
    h("th", { scope: "row" }, h("a", { href: eventHref(e.id) }, e.name)),
    h("td", {}, e.game), h("td", {}, formatText(e.format)), h("td", {}, clockText(e.clock), e.rated ? h("span.muted", {}, " · rated") : null),
    h("td.num", {}, String(e.players)), h("td.num", {}, roundText(e)), h("td", {}, startsText(e)));
}

// the table of `rows` (event summaries), or what to do when there is none
function eventTable(rows, status, game) {
  if (!rows.length) {
    const where = game ? ` of ${game}` : "";
    const hint = status === "finished" ? "" : status === "upcoming" ? " Create one below." : " See the upcoming ones.";
    return h("p.muted.empty", { id: "events-empty" }, `No ${status} event${where}.${hint}`);
  }
  return h("div.table-scroll", { tabindex: "0", role: "region", "aria-label": `${cap(status)} events` },
    h("table.events-table", { id: "events-table" },
      head(COLUMNS),
      h("tbody", {}, rows.map(eventRow))));
}

function statusTabs(onPick) {
  const tabs = h("div.gametabs.event-tabs", { role: "tablist", "aria-label": "Events by status" },
    STATUSES.map((s) => h("button.tab", { type: "button", role: "tab", id: `tab-${s}`, dataset: { status: s },
      "aria-selected": String(s === shownStatus), "aria-controls": "events-list", onclick: () => onPick(s) }, cap(s))));
  tabs.select = (s) => [...tabs.children].forEach((b) => b.setAttribute("aria-selected", String(b.dataset.status === s)));
  return tabs;
}

export function showEvents(root) {
  const body = h("div", { id: "events-list", role: "tabpanel", "aria-live": "polite" }, h("p.muted", {}, "Loading…"));
  const game = h("select", { id: "events-game", onchange: () => load() }, h("option", { value: "" }, "All games"));
  const tabs = statusTabs((s) => {
    shownStatus = s;
    tabs.select(s);
    load();
  });
  const creating = h("section.card.create-event", { id: "create-event" });
  root.append(h("div.events-page", {},
    h("section.card", {}, h("h2", {}, "Events"),
      h("p.small", {}, "Tournaments of every format, and the standing ", h("a", { href: "#/championships" }, "championships"),
        " of every game."),
      h("div.event-controls", {}, tabs, h("label.small", { for: "events-game" }, "Game "), game), body),
    creating));
  let asked = 0;
  const load = () => {
    const mine = ++asked, status = shownStatus;
    listEvents(status, game.value).then((rows) => {
      if (mine === asked) body.replaceChildren(eventTable(rows, status, game.value));
    }).catch((e) => body.replaceChildren(h("p.error", {}, e.message)));
  };
  load();
  const timer = setInterval(load, 15000);
  const games = api.games().then((gs) => {
    game.append(...gs.map((g) => h("option", { value: g.name }, g.name)));
    return gs;
  });
  let signedIn = null;
  const off = onAccount((a) => { // (on every message of the account's feed too: drawn again only when signed in or out)
    if (signedIn === !!a) return;
    signedIn = !!a;
    if (!a) creating.replaceChildren(h("h2", {}, "Create an event"),
      h("p", {}, h("a", { href: "#/login" }, "Sign in"), " to create an event or to enter one."));
    else games.then((gs) => { if (signedIn) creating.replaceChildren(createForm(gs)); });
  });
  games.catch((e) => creating.replaceChildren(h("p.error", {}, `games: ${e.message}`)));
  return () => {
    clearInterval(timer);
    off();
  };
}

// #/championships: every game's standing championship (entrants, cycle, divisions with their events, join or
// leave), and the divisions of a championship's event on its page.
import { onAccount } from "../account.js";
import { h } from "../dom.js";
import { championship, championships, eventHref, joinChampionship, leaveChampionship } from "./calls.js";
import { head, scrolling } from "./tables.js";

const ABOUT = "Every game has a championship all year: correspondence round robins in divisions of about eight "
  + "players (division 1, then 2a and 2b, ...), by rating. When a cycle ends the best of each division go up, the last "
  + "go down, and the next cycle starts by itself. Sign up once and stay in until you leave.";

// a championship's divisions, each a link to its event ("2a · 8 players"); `current` marked as the page's
function divisionLinks(c, current = null) {
  if (!(c.divisions || []).length) return h("span.muted", {}, c.status === "waiting" ? "waiting for players" : "none");
  return h("ul.divisions", {}, c.divisions.map((d) => h("li", {},
    h("a", { href: eventHref(d.tournament), "aria-current": d.tournament === current ? "page" : null },
      `Division ${d.name}`), h("span.muted.small", {}, ` · ${d.players} players`))));
}

function joinButton(c, signedIn, act) {
  if (!signedIn) return h("a.small", { href: "#/login" }, "Sign in to join");
  return c.joined
    ? h("button.danger", { type: "button", dataset: { leave: c.game }, onclick: () => act(() => leaveChampionship(c.game)) }, "Leave")
    : h("button.primary", { type: "button", dataset: { join: c.game }, onclick: () => act(() => joinChampionship(c.game)) }, "Join");
}

function championshipRow(c, signedIn, act) {
  return h("tr", { dataset: { game: c.game } },
    h("th", { scope: "row" }, c.game), h("td.num", {}, String(c.entrants)),
    h("td", {}, c.cycle ? `cycle ${c.cycle}` : "", h("div.small.muted", {}, c.status)),
    h("td", {}, divisionLinks(c)), h("td", {}, joinButton(c, signedIn, act), c.joined ? h("div.small", {}, "you are in") : null));
}

export function showChampionships(root) {
  const body = h("div", { id: "championships" }, h("p.muted", {}, "Loading…"));
  const err = h("p.error", { role: "alert" });
  root.append(h("section.card.championships-page", {}, h("h2", {}, "Championships"), h("p", {}, ABOUT), err, body,
    h("p.small", {}, h("a", { href: "#/events" }, "All events"))));
  let signedIn = false;
  const act = async (fn) => {
    err.textContent = "";
    try {
      await fn();
    } catch (e) {
      err.textContent = e.message;
    }
    load();
  };
  const load = () => championships().then((rows) => {
    body.replaceChildren(scrolling("Championships", h("table.event-table.championships", {},
      head(["Game", { text: "Players", num: true }, "Cycle", "Divisions", "You"]),
      h("tbody", {}, rows.map((c) => championshipRow(c, signedIn, act))))));
  }).catch((e) => body.replaceChildren(h("p.error", {}, e.message)));
  load();
  return onAccount((a) => {
    if (signedIn === !!a) return;
    signedIn = !!a;
    load();
  });
}

// The championship block of a division's event: which championship and cycle, and its divisions.
export function divisionsBlock(e) {
  const c = e.championship;
  const box = h("section.card.event-championship", { id: "event-championship" },
    h("h3", {}, `Championship of ${c.game}, cycle ${c.cycle}: division ${c.division}`));
  championship(c.game).then((full) => box.append(divisionLinks(full, e.id),
    h("p.small", {}, h("a", { href: "#/championships" }, "All championships"))))
    .catch((err) => box.append(h("p.error", {}, err.message)));
  return box;
}

// Players' pages: "my games" (#/my: where it is my move, nearest deadline first, then my other matches) and a
// player's profile (#/@/NAME or /@/NAME: ongoing and finished matches, when they joined).
import * as api from "./api.js";
import { h, optionsText, seatLink } from "./dom.js";
import { me, notifying, onAccount, setNotifying } from "./account.js";
import { eventHref } from "./events/calls.js";
import { formatText, roundText } from "./events/words.js";
import { profileRatings } from "./ratings.js";

// "in 2 d 3 h", "in 5 min", "passed": the time left until an ISO-8601 deadline.
export function timeLeft(iso, now = api.serverNow()) {
  const left = (Date.parse(iso) - now) / 1000;
  if (!(left > 0)) return "time is up";
  const mins = Math.ceil(left / 60); // whole minutes, rounded up: "1 h 0 min", never "0 h 60 min"
  const d = Math.floor(mins / 1440), hr = Math.floor((mins % 1440) / 60), min = mins % 60;
  if (d) return `${d} d ${hr} h left`;
  if (hr) return `${hr} h ${min} min left`;
  if (left >= 60) return `${min} min left`;
  return `${Math.ceil(left)} s left`;
}

// The event a tournament game belongs to: "Event name, round R", a link to the event's page (`t`: a match's or a
// match summary's "tournament", {id, name, round}).
export const eventLine = (t, id = null) => h("div.small.event-line", { id },
  h("a", { href: eventHref(t.id) }, `${t.name}, round ${t.round}`));

// One match of a list: its game and players, the move count, its status, its event, and the deadline where one runs.
export function matchItem(m, verb = "Open", records = false) {
  return h("li.match-item", { dataset: { match: m.id } },
    h("a", { href: `#/match/${encodeURIComponent(m.id)}` }, `${verb}: ${m.game}`),
    " ", h("span.vs", {}, seatLink(m.seat_info[0]), " – ", seatLink(m.seat_info[1])),
    h("span.muted", {}, ` ${optionsText(m.options)} · ply ${m.ply}`),
    m.deadline && !m.over ? h("span.deadline", {}, ` · ${timeLeft(m.deadline)}`) : null,
    records ? h("span.small", {}, " · record ", h("a", { href: api.recordUrl(m.id, "json"), download: `hexarena-${m.id}.json` }, "JSON"),
      " ", h("a", { href: api.recordUrl(m.id, "txt"), download: `hexarena-${m.id}.txt` }, "text")) : null,
    m.status ? h("div.muted.small", {}, m.status) : null,
    m.tournament ? eventLine(m.tournament) : null);
}

function list(id, items, empty, verb, records = false) {
  return h("ul.matches", { id }, items.length ? items.map((m) => matchItem(m, verb, records)) : [h("li.muted", {}, empty)]);
}

function notifyToggle() {
  if (!("Notification" in window)) return null;
  const box = h("input", { type: "checkbox", id: "notify", checked: notifying(), onchange: async () => { box.checked = await setNotifying(box.checked); } });
  return h("label.small", { for: "notify" }, box, " Tell me by a browser notification when a move, a challenge or a new round arrives");
}

// My running events' games going on (the account feed's "events"): "your next tournament game".
function eventGames(events) {
  return h("section.card", { id: "my-events" }, h("h2", {}, "Your tournament games"),
    h("ul.matches", { id: "list-events" }, events.map((ev) => h("li", { dataset: { match: ev.match } },
      h("a", { href: `#/match/${encodeURIComponent(ev.match)}` }, `Round ${ev.round} of ${ev.name}`),
      " · ", h("a.small", { href: eventHref(ev.id) }, "the event")))));
}

// A player's events (a profile's "events": event summaries, newest first).
function eventList(events) {
  return h("ul.matches", { id: "profile-events" }, events.length ? events.map((e) => h("li", { dataset: { event: e.id } },
    h("a", { href: eventHref(e.id) }, e.name),
    h("span.muted", {}, ` ${e.game} · ${formatText(e.format)} · ${e.status} · round ${roundText(e)}`))) : [h("li.muted", {}, "none")]);
}

export function showMyGames(root) {
  const turn = h("section.card", {}, h("h2", {}, "Your move"), h("p.muted", {}, "Loading…"));
  const others = h("section.card", {}, h("h2", {}, "Your other matches"));
  const events = h("div", { id: "my-events-box" });
  root.append(h("div.mygames", {}, events, turn, others, notifyToggle()));
  let stopped = false;
  const load = () => api.myMatches().then((mine) => {
    if (stopped) return;
    const ongoing = (mine.ongoing || []).filter((m) => !(m.my_seats || []).includes(m.to_move));
    others.replaceChildren(h("h2", {}, "Your other matches"),
      h("h3", {}, "Waiting for the opponent"), list("list-waiting", ongoing, "none", "Watch"),
      h("h3", {}, "Finished"), list("list-finished", mine.finished || [], "none", "Replay"));
  }).catch((e) => others.replaceChildren(h("p.error", {}, e.message)));
  const off = onAccount((a, msg) => {
    if (stopped) return;
    if (a === null) {
      turn.replaceChildren(h("p", {}, h("a", { href: "#/login" }, "Sign in"), " to see your games on every device."));
      others.replaceChildren();
      events.replaceChildren();
      return;
    }
    if (!msg) return;
    events.replaceChildren(...((msg.events || []).length ? [eventGames(msg.events)] : []));
    turn.replaceChildren(h("h2", {}, `Your move (${(msg.turn || []).length})`),
      list("list-turn", msg.turn || [], "None: it is nobody's move against you.", "Play"));
    load();
  });
  me().catch(() => {});
  return () => {
    stopped = true;
    off();
  };
}

export function showProfile(root, name) {
  const card = h("section.card.profile", {}, h("p.muted", {}, "Loading…"));
  root.append(card);
  api.user(name).then((u) => {
    const ongoing = (u.matches || []).filter((m) => !m.over);
    const finished = (u.matches || []).filter((m) => m.over);
    card.replaceChildren(...[
      h("h2", {}, u.name),
      u.ai_level ? h("p", { id: "ai-note" }, `The AI at level ${u.ai_level}: challenge it from a game's panel in the lobby.`)
        : h("p.muted", {}, `Joined ${new Date(u.joined).toLocaleDateString()}`),
      u.conduct && u.conduct.flag ? h("p.conduct", { id: "conduct", role: "note" }, `⚠ This player ${u.conduct.flag}.`) : null,
      ...profileRatings(u),
      h("h3", {}, "Ongoing"), list("profile-ongoing", ongoing, "none", "Watch", true),
      h("h3", {}, "Finished"), list("profile-finished", finished, "none", "Replay", true),
      h("h3", {}, "Events"), eventList(u.events || [])].filter(Boolean));
  }).catch((e) => card.replaceChildren(h("p.error", {}, e.message), h("a", { href: "#/" }, "Back to the lobby")));
  return null;
}

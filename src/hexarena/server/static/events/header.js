// The event page's head: what the event is (game, format, clock, rated, status, round, creator), whether entry is
// open and why not, and the buttons of the signed-in account: join, withdraw, and the creator's invite and start.
import { h, optionsText, playerLink } from "../dom.js";
import { levelInput, range } from "../lobby/seek_fields.js";
import { exportUrl, inviteToEvent, joinEvent, startEvent, withdrawEvent } from "./calls.js";
import { clockText, formatText, startsText } from "./words.js";

function facts(e) {
  const round = e.status === "upcoming" ? null : `round ${e.round} of ${e.rounds}`;
  const ratings = e.rating_range ? `ratings ${e.rating_range[0]} to ${e.rating_range[1]}` : null;
  const most = e.max_players ? `at most ${e.max_players} players` : null;
  const starts = e.status === "upcoming" ? `starts ${startsText(e)}` : null;
  return h("p.event-facts", { id: "event-facts" },
    h("span", {}, e.game, h("span.muted", {}, ` ${optionsText(e.options)}`)), " · ", formatText(e.format), " · ", clockText(e.clock), " · ",
    e.rated ? "rated" : "casual", " · ", h("strong", { id: "event-status" }, e.status), round ? ` · ${round}` : null,
    [ratings, most, starts].filter(Boolean).map((x) => ` · ${x}`), h("br"),
    h("span.small.muted", {}, "created by "), playerLink(e.by), e.status !== "upcoming" ? h("span.small", {}, " · ",
      h("a", { href: exportUrl(e.id), download: `hexarena-event-${e.id}.json` }, "the results as JSON")) : null);
}

// the creator's buttons before the start: invite an AI level (within the game's `levels`), start now
function creatorTools(e, levels, act) {
  const level = levelInput("ev-ai-level", levels);
  const invite = () => act(() => inviteToEvent(e.id, `ai-${level.value}`));
  const start = () => act(() => startEvent(e.id));
  return h("div.creator-tools", {},
    h("label", { for: "ev-ai-level" }, `Invite the AI, level (${range(levels)}) `), level,
    h("button", { type: "button", id: "ev-invite", onclick: invite }, "Invite"),
    h("button.primary", { type: "button", id: "ev-start-now", onclick: start }, "Start now"));
}

function entryButtons(e, who, act) {
  if (!who) return e.status === "upcoming" ? h("p", {}, h("a", { href: "#/login" }, "Sign in"), " to join.") : null;
  const mine = (e.players || []).find((p) => p.name === who.name);
  if (mine && !mine.withdrawn && e.status !== "finished") {
    const ask = e.status === "running" ? "Withdraw? You forfeit every later game; the games you played stand."
      : "Leave this event before it starts?";
    return h("button.danger", { type: "button", id: "ev-withdraw",
      onclick: () => window.confirm(ask) && act(() => withdrawEvent(e.id)) }, "Withdraw");
  }
  const entry = e.entry || { open: e.status === "upcoming", why: null };
  if (entry.open && !mine) return h("button.primary", { type: "button", id: "ev-join", onclick: () => act(() => joinEvent(e.id)) }, "Join");
  return null;
}

function entryNote(e) {
  if (e.status !== "upcoming") return null;
  const n = (e.players || []).length;
  const why = e.entry && !e.entry.open && e.entry.why ? ` · entry closed: ${e.entry.why}` : "";
  return h("p.small", { id: "entry-note" }, `${n} entrant${n === 1 ? "" : "s"}${why}`);
}

// `who`: the account or null; `levels`: the AI's (GET /api/games' ai_levels), null while unknown; act(fn) runs a
// change and shows the event it answers.
export function eventHead(e, who, levels, act) {
  const creator = who && who.name === e.by && e.status === "upcoming" && levels;
  return [
    h("h2", { id: "event-name" }, e.name),
    facts(e),
    e.status === "finished" && e.standings && e.standings.length
      ? h("p.banner.winner", { id: "event-winner", role: "status" }, "Winner: ", h("strong", {}, e.standings[0].name)) : null,
    entryNote(e),
    h("div.actions", {}, entryButtons(e, who, act), creator ? creatorTools(e, levels, act) : null),
    h("p.error", { role: "alert", id: "event-error" }),
  ];
}

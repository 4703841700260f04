// #/events/ID: an event's page, drawn again from every event object its live feed sends (and every answer to a
// button): the head and buttons, the championship's divisions, the standings (the entrants before the start), the
// current round's live boards, the crosstable and the rounds.
import * as api from "../api.js";
import { onAccount } from "../account.js";
import { h } from "../dom.js";
import { liveBoards } from "./boards.js";
import { eventLive, getEvent } from "./calls.js";
import { divisionsBlock } from "./championships.js";
import { eventHead } from "./header.js";
import { roundsList } from "./rounds.js";
import { crossTable, entrantsTable, standingsTable } from "./tables.js";

function elements() {
  const card = (cls, id, title) => h(`section.card.${cls}`, { id }, title ? h("h3", {}, title) : null);
  const els = { head: card("event-head", "event-head"), championship: h("div"), table: card("event-standings", "event-standings"),
    boards: liveBoards(), cross: card("event-cross", "event-cross"), rounds: card("event-rounds", "event-rounds"),
    connection: h("p.muted.small.connection", { id: "event-connection", role: "status" }) };
  els.live = h("section.card.event-live", { id: "event-live" }, h("h3", {}, "Current round"), els.boards);
  els.page = h("div.event-page", {}, els.head, els.championship,
    h("div.event-main", {}, h("div.event-tables", {}, els.table, els.cross), els.live), els.rounds, els.connection);
  return els;
}

// every part of the page from event `e` (the focus kept on the button or table it was on, the tables' sideways scroll
// kept)
function draw(st, els) {
  const e = st.event;
  const focused = document.activeElement && document.activeElement.id;
  const scrolled = [...els.page.querySelectorAll(".table-scroll[id]")].map((b) => [b.id, b.scrollLeft]);
  const game = (st.games || []).find((g) => g.name === e.game);
  els.head.replaceChildren(...eventHead(e, st.who, game ? game.ai_levels : null, st.act).filter(Boolean));
  els.head.querySelector("#event-error").textContent = st.error;
  if (e.championship && !els.championship.firstChild) els.championship.replaceChildren(divisionsBlock(e));
  const upcoming = e.status === "upcoming";
  els.table.replaceChildren(h("h3", {}, upcoming ? "Entrants" : "Standings"), ...[upcoming ? entrantsTable(e) : standingsTable(e)].flat());
  els.live.hidden = e.status !== "running";
  els.boards.update(e);
  els.cross.hidden = els.rounds.hidden = upcoming;
  els.cross.replaceChildren(h("h3", {}, "Crosstable"), crossTable(e));
  els.rounds.replaceChildren(h("h3", {}, "Rounds"), roundsList(e, st.folds));
  for (const [id, left] of scrolled) {
    const box = document.getElementById(id);
    if (box) box.scrollLeft = left;
  }
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
}

export function showEvent(root, id) {
  const els = elements();
  root.append(els.page);
  const st = { event: null, who: null, games: null, error: "", folds: new Map() };
  const redraw = () => { if (st.event) draw(st, els); };
  const accept = (e) => {
    st.event = e;
    redraw();
  };
  st.act = async (fn) => {
    st.error = "";
    try {
      accept(await fn());
    } catch (e) {
      st.error = e.message;
      redraw();
    }
  };
  api.games().then((gs) => {
    st.games = gs;
    redraw();
  }).catch(() => {});
  const off = onAccount((a) => { // (on every message of the account's feed too: drawn again only for a new account)
    if ((st.who && st.who.name) === (a && a.name)) return;
    st.who = a;
    redraw();
  });
  getEvent(id).then(accept).catch((e) => els.page.replaceChildren(h("section.card", {}, h("p.error", {}, e.message),
    h("a", { href: "#/events" }, "All events"))));
  const stop = eventLive(id, accept, (up) => { els.connection.textContent = up ? "" : "reconnecting…"; });
  return () => {
    stop();
    off();
    els.boards.stop();
  };
}

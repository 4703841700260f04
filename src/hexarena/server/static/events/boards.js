// The current round's games as small live boards: a few of them (the ones going on first), each the server's picture
// of its match, read again when the event's feed shows it changed (a move: its ply; its result), at most once a
// SETTLE.
import { getMatch } from "../api.js";
import { aiName, h } from "../dom.js";
import { fitCells, gamePicture } from "../learn.js";
import { matchHref } from "../lobby/panels.js";
import { resultText } from "./words.js";

const MOST = 6; // boards shown
const SETTLE = 1500; // ms between two readings of the boards

// the current round's games with a match, the ones going on first, at most MOST
function shownGames(e) {
  const round = (e.pairings || []).find((r) => r.round === e.round);
  const games = round ? round.games.filter((g) => g.match) : [];
  return [...games.filter((g) => !g.result), ...games.filter((g) => g.result)].slice(0, MOST);
}

const who = (info) => (info.kind === "ai" ? aiName(info.level) : info.name || "guest");

// one board's box: the picture (a link to the match, named for a screen reader) and its caption
function drawBoard(box, g, m) {
  const players = `${who(m.seat_info[0])} – ${who(m.seat_info[1])}`;
  const picture = gamePicture(m.svg);
  box.replaceChildren(
    h("a.mini-picture", { href: matchHref(g.match), "aria-label": `Board ${g.board}: ${players}, open the game` }, picture),
    h("p.mini-caption", {}, h("strong", {}, `${g.board}. `), players,
      g.result ? h("span.mini-result", {}, ` ${resultText(g.result)}`) : null),
    h("p.small.muted.mini-status", {}, `${m.status || ""}${m.thinking && !m.over ? " · the AI thinks" : ""}`));
  fitCells(picture.querySelector("svg"));
}

export function liveBoards() {
  const box = h("div.mini-boards", { id: "live-boards" });
  const boxes = new Map(); // match id -> {el, seen}: seen, the ply and result last read
  let latest = null, timer = null, first = true;
  const read = () => {
    timer = null;
    const games = shownGames(latest);
    for (const g of games) {
      const known = boxes.get(g.match) || { el: h("figure.mini-board", { dataset: { match: g.match } },
        h("p.small.muted", {}, "loading…")), seen: null };
      boxes.set(g.match, known);
      const now = `${g.ply}:${g.result}`;
      if (known.seen === now) continue;
      known.seen = now;
      getMatch(g.match).then((m) => drawBoard(known.el, { ...g, board: g.board ?? games.indexOf(g) + 1 }, m))
        .catch((err) => known.el.replaceChildren(h("p.error", {}, err.message)));
    }
    const els = games.map((g) => boxes.get(g.match).el);
    box.replaceChildren(...(els.length ? els : [h("p.muted", {}, latest.status === "running" ? "No game of this round is shown."
      : latest.status === "upcoming" ? "The games show here once the event starts." : "The event is over.")]));
  };
  box.update = (e) => {
    latest = e;
    if (first) read();
    else timer ??= setTimeout(read, SETTLE);
    first = false;
  };
  box.stop = () => clearTimeout(timer);
  return box;
}

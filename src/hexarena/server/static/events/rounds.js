// The rounds and their pairings: each game's board, its first seat, result, second seat and match; the bye.
import { h, playerLink } from "../dom.js";
import { matchHref } from "../lobby/panels.js";
import { head, scrolling } from "./tables.js";
import { resultText } from "./words.js";

function gameRow(g, i) {
  const forfeit = g.forfeit || !g.match;
  const result = resultText(g.result);
  return h("tr", { dataset: { match: g.match || "", board: String(g.board ?? i + 1) } },
    h("td.num", {}, String(g.board ?? i + 1)), h("td", {}, playerLink(g.seats[0])),
    h("td.result", {}, result || (forfeit ? "" : "playing"), forfeit ? h("span.muted", {}, " (forfeit)") : null),
    h("td", {}, playerLink(g.seats[1])),
    h("td", {}, g.match ? h("a", { href: matchHref(g.match) }, result ? "Replay" : "Watch") : ""));
}

// a round's byes: every one (a knockout's first round may have several), else its one bye
const byesOf = (r) => r.byes || (r.bye ? [r.bye] : []);

function roundTable(r) {
  const byes = byesOf(r).map((name) => h("tr.bye", {}, h("td", {}, ""), h("td", {}, playerLink(name)),
    h("td.result", {}, "bye"), h("td", {}, ""), h("td", {}, "")));
  return scrolling(`Round ${r.round} pairings`, h("table.event-table.pairings", { id: `round-${r.round}`, dataset: { round: String(r.round) } },
    head([{ text: "Board", num: true }, "First seat", "Result", "Second seat", "Game"]),
    h("tbody", {}, r.games.map(gameRow), byes)));
}

// the rounds paired so far, newest first: the current one open, the others folded; `folds` (round -> open) keeps
// what the reader opened or closed across redraws
export function roundsList(e, folds) {
  const rounds = [...(e.pairings || [])].reverse();
  if (!rounds.length) return h("p.muted", {}, "No round is paired yet.");
  return h("div.rounds", { id: "rounds" }, rounds.map((r) => {
    const done = r.games.filter((g) => g.result).length;
    const box = h("details.round", { open: folds.get(r.round) ?? r.round === e.round, dataset: { round: String(r.round) } },
      h("summary", { onclick: () => folds.set(r.round, !box.open) },
        h("strong", {}, `Round ${r.round}`), h("span.muted", {}, ` · ${done} of ${r.games.length} games over`)),
      roundTable(r));
    return box;
  }));
}

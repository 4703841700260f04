// The panel's head: the game and its options, who sits each seat (with ratings and clocks), rated or casual, the
// result, the status line and the AI's thinking line.
import { cap, h, optionsText, seatLink, seatName } from "../../dom.js";
import { eventLine } from "../../people.js";
import { ratingChange } from "../../ratings.js";
import { thinkingLine } from "../../thinking.js";
import { clockOf } from "../clock.js";
import { builtTitle } from "./builder.js";
import { plyText } from "./moves.js";

const known = (x) => x !== null && x !== undefined;

function who(ctrl, info, p) {
  const me = ctrl.mine();
  if (info.name) return seatLink(info);
  return info.kind === "open" ? "open seat" : me.includes(p) ? "you" : me.length ? "opponent (guest)" : "a guest";
}

function seatLine(ctrl, m) {
  return m.seat_info.map((info, p) => {
    const rating = m.ratings && m.ratings[p];
    return h("span.seat", { class: `seat seat${p}${m.to_move === p && !m.over ? " to-move" : ""}`, dataset: { seat: String(p) } },
      `${seatName(p, ctrl.players)}: `, who(ctrl, info, p), info.name && ctrl.mine().includes(p) ? " (you)" : "",
      rating ? h("span.seat-rating", {}, ` ${ratingChange(rating)}`) : null, clockOf(m, p));
  });
}

// rated or casual, and a rated match aborted (ended before both sides moved)
const ratedText = (m) => (!m.rated ? "casual" : m.aborted ? "aborted: not rated"
  : m.uncounted ? "rated, not counted: these two players' rated games today already count" : "rated");
// fair play: no hints, review or lines tried ahead in a rated or two-person game until it ends (the server's word)
const ratedLine = (m) => h("p.small.rated", { id: "rated" }, ratedText(m),
  m.help_closed ? h("span.muted", { id: "fair-play" }, ` · no hints or analysis until the end (${m.help_closed})`) : null);

function resultBanner(ctrl, m) {
  if (!m.over) return null;
  const me = ctrl.mine(), name = (p) => seatName(p, ctrl.players);
  let text = !known(m.winner) ? "Draw" : me.length === 1 ? (me[0] === m.winner ? "You won" : "You lost") : `${cap(name(m.winner))} won`;
  if (known(m.resigned)) text += ` — ${name(m.resigned)} resigned`;
  if (known(m.timed_out)) text += ` — ${name(m.timed_out)} ran out of time`;
  return h("div.banner", { id: "result", role: "status" }, h("strong", {}, text), h("div", {}, m.status || ""));
}

function statusText(ctrl, m, v) {
  if (v.view === "scratch") return `Scratch line: ${v.pos.status || ""}`;
  if (ctrl.view !== null) return `${cap(plyText(m.turns || [], ctrl.view))}: ${ctrl.viewStatus || ""}`;
  const built = builtTitle(ctrl, m, v);
  if (built) return cap(built);
  return v.line && v.line.moves.length && !v.pos.turn_done ? v.pos.status : m.status || "";
}

export function head(ctrl, m, v) {
  return [
    h("h2", {}, m.game, h("span.muted.opts", {}, ` ${optionsText(m.options)}`)),
    m.tournament ? eventLine(m.tournament, "event-line") : null,
    h("div.seats", {}, seatLine(ctrl, m)),
    ratedLine(m),
    resultBanner(ctrl, m),
    ctrl.view !== null || !m.over ? h("p.status", { id: "status", role: "status" }, statusText(ctrl, m, v)) : null,
    thinkingLine(m),
    !ctrl.connected ? h("p.muted.small", {}, "reconnecting…") : null,
  ];
}

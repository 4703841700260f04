// The move list (a review's flagged moves marked, with the AI's best) and the replay's buttons; where a ply falls
// in the turns, in words.
import { h } from "../../dom.js";
import { flaggedMoves } from "../../review.js";

// Where ply v falls in the turns of the move list: {turn, step, steps} (steps: the turn's steps so far).
function turnAt(turns, v) {
  let start = 0;
  for (const [turn, written] of turns) {
    const end = written[written.length - 1][1];
    if (v <= end) return { turn, step: v - start, steps: end - start };
    start = end;
  }
  return null;
}

// The position after ply v in words: "after turn 3 of 12" (or a step inside a turn).
export function plyText(turns, v) {
  const at = v ? turnAt(turns, v) : null;
  if (!at) return "the start";
  const last = turns[turns.length - 1][0];
  return at.step === at.steps ? `after turn ${at.turn} of ${last}` : `turn ${at.turn} of ${last}, after step ${at.step}`;
}

// one written move: a button to its position, flagged `f` by a review
function moveButton(ctrl, text, ply, current, f) {
  const button = h(`button.mv${f ? ".flagged" : ""}`, {
    type: "button", dataset: { ply: String(ply) }, "aria-current": ply === current ? "step" : null,
    title: f ? `flagged: the AI's best was ${f.best}` : null, onclick: () => ctrl.jump(ply),
  }, text);
  return f ? [button, h("span.best", {}, `best ${f.best}`)] : button;
}

// m.turns: [[turn, [[move, ply], ...]], ...], ply being the position after the written move
function moveList(ctrl, m) {
  const rows = m.turns || [];
  const current = ctrl.view === null ? m.ply : ctrl.view;
  const flagged = ctrl.review && ctrl.review.status === "done" ? flaggedMoves(rows, ctrl.review.plies) : new Map();
  if (!rows.length) return h("p.muted.small", { id: "moves" }, "No moves yet.");
  return h("ol.movelist", { id: "moves" }, rows.map(([turn, written]) => h("li", { value: String(turn) },
    written.flatMap(([text, ply]) => moveButton(ctrl, text, ply, current, flagged.get(ply))))));
}

function replayNav(ctrl, m) {
  const replay = ctrl.view !== null;
  return h("div.replaynav", {},
    h("button", { id: "first", type: "button", "aria-label": "first position", onclick: () => ctrl.jump(0) }, "«"),
    h("button", { id: "prev", type: "button", "aria-label": "previous move", onclick: () => ctrl.jump(ctrl.here() - 1) }, "◀"),
    h("button", { id: "next", type: "button", "aria-label": "next move", onclick: () => ctrl.jump(ctrl.here() + 1) }, "▶"),
    h("button", { id: "live", type: "button", class: replay ? "primary" : "", disabled: !replay, onclick: () => ctrl.jump(m.ply) }, "Live"));
}

export function history(ctrl, m) {
  return h("section.history", {}, h("h3", {}, "Moves"), moveList(ctrl, m), replayNav(ctrl, m),
    h("p.muted.small", {}, "← → keys step through the moves"));
}

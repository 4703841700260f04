// The builder panel: the word moves (pass, end, swap), my staged steps (the turn builder), the scratch line of a
// finished match, and the hint.
import { stagedBox } from "../../builder.js";
import { cap, h, seatName } from "../../dom.js";
import { scratchPanel } from "../../review.js";
import { plyText } from "./moves.js";

export function hintText(hint) {
  const rate = typeof hint.rate === "number" ? ` (rate ${hint.rate <= 1 ? Math.round(hint.rate * 100) + "%" : hint.rate})` : "";
  return h("p.hint", { id: "hint" }, `Hint: ${hint.move}${hint.proof ? ` (${hint.proof})` : rate}`);
}

// a staged turn complete, in words: its player's (the position drawn is the next player's); else null
export function builtTitle(ctrl, m, v) {
  const line = v.line;
  if (!(line && line.moves.length && v.pos.turn_done && !v.pos.over)) return null;
  const n = line.moves.length;
  return `${seatName(m.to_move, ctrl.players)} to move: ${n} step${n === 1 ? "" : "s"} built, Confirm sends the turn`;
}

// the moves played by a word, not a cell, where the board takes moves
function words(v) {
  const shown = v.onPick ? (v.targets || []).filter((t) => t.cell === null || t.cell === undefined) : [];
  const labels = v.pos.labels || {};
  return shown.length ? h("div.words", {}, shown.map((t) => h(`button${t.move === "end" ? ".primary" : ""}`, {
    type: "button", dataset: { move: t.move }, onclick: () => v.onPick(t.move),
  }, cap(labels[t.move] || t.move)))) : null;
}

function scratch(ctrl, m) {
  const line = ctrl.scratch;
  return scratchPanel(line, plyText(m.turns || [], line.ply), ctrl.scratchHint && hintText(ctrl.scratchHint), {
    onBack: () => ctrl.unstage(line, line.moves.length - 1),
    onHint: () => ctrl.askScratchHint(),
    onExit: () => ctrl.jump(line.ply) });
}

export function builderParts(ctrl, m, v) {
  const line = v.line;
  const staged = line ? stagedBox(line, { onRemove: (i) => ctrl.unstage(line, i), onClear: () => ctrl.clearLine(),
    onConfirm: () => ctrl.confirm(line) }) : null;
  const hint = ctrl.scratch ? scratch(ctrl, m) : ctrl.view === null && ctrl.hint ? hintText(ctrl.hint) : null;
  return [words(v), staged, hint];
}

// The board panel: what the board shows and what a click on it does (the scratch line, a replay position, or the
// match, with my staged steps drawn over it while the turn builder is on), and the review's graph under it.
import { renderBoard } from "../../board.js";
import { builderOn } from "../../builder.js";
import { Line } from "../../line.js";
import { rateGraph } from "../../review.js";
import { builtTitle } from "./builder.js";

const cellOf = (hint, pos) => (hint ? (pos.targets || []).find((t) => t.move === hint.move)?.cell ?? null : null);

// {view, pos, targets, onPick?, hint?, line?}: "scratch", the replay's ply, or "live"; no onPick while an action is
// in flight (the live socket may show a move before its answer: a click then would be dropped)
export function boardView(ctrl, m) {
  const v = viewOf(ctrl, m);
  return ctrl.busy ? { ...v, onPick: null } : v;
}

function viewOf(ctrl, m) {
  if (ctrl.scratch) {
    const pos = ctrl.scratch.pos;
    return { view: "scratch", pos, targets: pos.over ? [] : pos.targets, onPick: (mv) => ctrl.extend(ctrl.scratch, mv),
      hint: ctrl.scratchHint };
  }
  if (ctrl.view !== null) return { view: String(ctrl.view), pos: { svg: ctrl.viewSvg }, targets: [] };
  if (!ctrl.myTurn()) return { view: "live", pos: m, targets: [], hint: ctrl.hint };
  if (!builderOn(m, ctrl.mine())) return { view: "live", pos: m, targets: m.targets, onPick: (mv) => ctrl.play(mv), hint: ctrl.hint };
  ctrl.line ??= new Line(ctrl.previews, m.ply, m);
  const line = ctrl.line, pos = line.pos;
  return { view: "live", pos, targets: pos.turn_done ? [] : pos.targets, onPick: (mv) => ctrl.extend(line, mv), line,
    hint: line.moves.length ? null : ctrl.hint };
}

// Draw view `v` of match `m` on `board` (its previews shown by `peek`).
export function drawBoard(ctrl, board, peek, m, v) {
  const picks = !!v.onPick;
  peek.hide();
  renderBoard(board, v.pos.svg, { targets: v.targets || [], pictures: v.pos.pictures || [], onPick: v.onPick || null,
    hintCell: cellOf(v.hint, v.pos), onHover: picks ? peek.hover : null, onRefused: picks ? (cell) => ctrl.refuse(cell) : null,
    title: builtTitle(ctrl, m, v) });
  board.classList.toggle("replay", ctrl.view !== null && !ctrl.scratch);
  board.classList.toggle("scratch", !!ctrl.scratch);
  board.classList.toggle("active", picks);
  Object.assign(board.dataset, { ply: String(m.ply), view: v.view, over: String(!!m.over), thinking: String(!!m.thinking),
    staged: String(v.line ? v.line.moves.length : 0) });
}

// the review's win-rate graph under the board, once it is done
export function drawReviewGraph(ctrl, graphBox, m) {
  const review = ctrl.review;
  const done = review && review.status === "done" && review.plies.length;
  const shown = ctrl.scratch ? ctrl.scratch.ply : ctrl.view ?? m.ply;
  graphBox.replaceChildren(...(done ? [rateGraph(review.plies, shown, ctrl.players && ctrl.players[0], (ply) => ctrl.jump(ply))] : []));
}

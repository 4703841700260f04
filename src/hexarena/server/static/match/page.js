// A match: the board, the side panel (status, moves, replay, actions, chat), live updates. The page's elements and
// keys; the state and actions are the controller's (ctrl.js), the drawing the views' (view/).
import { closeChooser } from "../board.js";
import { h } from "../dom.js";
import { makePeek } from "../peek.js";
import { startClocks } from "./clock.js";
import { MatchCtrl } from "./ctrl.js";
import { follow } from "./socket.js";
import { boardView, drawBoard, drawReviewGraph } from "./view/board.js";
import { drawPanel } from "./view/panel.js";

function elements() {
  const els = {
    board: h("div.board", { id: "board" }),
    panel: h("aside.panel", { id: "panel" }),
    clockAlert: h("p.sr-only", { id: "clock-alert", "aria-live": "assertive" }), // outside the panel: kept across redraws
    news: h("p.sr-only", { id: "news", "aria-live": "polite" }), // moves said to a screen reader
    reason: h("p.reason", { id: "reason", "aria-live": "polite" }), // why a click was refused
    graphBox: h("div.review-graph", { id: "review-graph" }),
  };
  els.wrap = h("div.board-wrap", {}, els.board, els.reason, els.graphBox);
  els.page = h("div.match", {}, els.wrap, els.panel, els.clockAlert, els.news);
  return els;
}

function redraw(ctrl, els, peek) {
  const m = ctrl.match;
  if (!m) return;
  const v = boardView(ctrl, m);
  drawBoard(ctrl, els.board, peek, m, v);
  drawReviewGraph(ctrl, els.graphBox, m);
  drawPanel(ctrl, els.panel, m, v);
}

// ← → step through the moves, Escape closes the chooser (not while typing)
function keys(ctrl) {
  return (ev) => {
    if (!ctrl.match || ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft") ctrl.jump(ctrl.here() - 1);
    else if (ev.key === "ArrowRight") ctrl.jump(ctrl.here() + 1);
    else if (ev.key === "Escape") closeChooser();
    else return;
    ev.preventDefault();
  };
}

// Show match `id` in `root`; the function that leaves the page.
export function showMatch(root, id) {
  const els = elements();
  root.append(els.page);
  const ui = {
    news: els.news,
    redraw: () => redraw(ctrl, els, peek),
    say: (msg) => { els.reason.textContent = msg || ""; },
    error: (msg) => {
      const el = els.panel.querySelector(".error");
      if (el) el.textContent = msg || "";
    },
  };
  const ctrl = new MatchCtrl(id, ui);
  const peek = makePeek(els.wrap, (move) => ctrl.previews.get(ctrl.base().ply, [...ctrl.base().moves, move]));
  const onKey = keys(ctrl);
  document.addEventListener("keydown", onKey);
  const stopClocks = startClocks(ctrl, els.panel, els.clockAlert);
  const stop = follow(ctrl, (e) => els.page.replaceChildren(h("section.card", {}, h("p.error", {}, e.message),
    h("a", { href: "#/" }, "Back to the lobby"))));
  return () => {
    stop();
    ctrl.stopReview();
    stopClocks();
    closeChooser();
    document.removeEventListener("keydown", onKey);
  };
}

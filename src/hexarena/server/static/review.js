// A finished match reviewed with the AI (GET /analysis): its progress, the first player's win rate after each
// ply (a graph whose click jumps the replay), the flagged moves with the AI's best; and scratch lines tried from
// a replay position (a Line from that ply, never the match), with hints.
import * as api from "./api.js";
import { h, svg } from "./dom.js";

const POLL_MS = 1000;

// Ask for the review until it is done: onUpdate(review) after every answer, onError(e); returns a stop function.
export function pollReview(id, onUpdate, onError) {
  let stopped = false;
  let timer = null;
  const ask = async () => {
    try {
      const review = await api.analysis(id);
      if (stopped) return;
      onUpdate(review);
      if (review.status !== "done") timer = setTimeout(ask, POLL_MS);
    } catch (e) {
      if (!stopped) onError(e);
    }
  };
  ask();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export const reviewProgress = (review) => h("div.review-progress", {},
  h("label", { for: "review-progress" }, `Reviewing with the AI… ${Math.round(review.progress * 100)}%`),
  h("progress", { id: "review-progress", max: 1, value: review.progress }));

// The first player's win rate after each ply (index 0: the start), from the movers' rates.
function firstRates(plies) {
  const first = (p, rate) => (p.mover === 0 ? rate : 1 - rate);
  return plies.length ? [first(plies[0], plies[0].before), ...plies.map((p) => first(p, p.after))] : [];
}

const W = 600, H = 150, LEFT = 38, RIGHT = 8, TOP = 8, BOTTOM = 22;

// The win-rate graph: flagged moves marked, the ply shown marked; onJump(ply) on a click. first: the first
// player's name in the game (or null).
export function rateGraph(plies, shown, first, onJump) {
  const who = `the first player${first && !/first/i.test(first) ? ` (${first})` : ""}`;
  const rates = firstRates(plies);
  const n = Math.max(1, rates.length - 1);
  const x = (k) => LEFT + (k * (W - LEFT - RIGHT)) / n;
  const y = (rate) => TOP + (1 - rate) * (H - TOP - BOTTOM);
  const path = rates.map((r, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(r).toFixed(1)}`).join("");
  const graph = svg("svg.rates", { id: "rate-graph", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `Win rate of ${who} after each move (a click jumps there)` },
  [0, 0.5, 1].flatMap((r) => [svg("line.grid", { x1: LEFT, x2: W - RIGHT, y1: y(r), y2: y(r) }),
    svg("text.tick.y", { x: LEFT - 4, y: y(r) + 4 }, `${r * 100}%`)]),
  svg("line.shown", { x1: x(shown), x2: x(shown), y1: TOP, y2: H - BOTTOM }),
  svg("path.line", { d: path }),
  plies.filter((p) => p.flagged).map((p) => svg("circle.flag", { cx: x(p.ply + 1), cy: y(rates[p.ply + 1]), r: 4.5, dataset: { ply: String(p.ply + 1) } },
    svg("title", {}, `${p.move} lost ${Math.round(p.loss * 100)} points; best ${p.best}`))),
  svg("text.label", { x: (LEFT + W - RIGHT) / 2, y: H - 5 }, `Win rate of ${who} after each move`));
  graph.addEventListener("click", (ev) => {
    const box = graph.getBoundingClientRect();
    const at = ((ev.clientX - box.left) / box.width) * W;
    onJump(Math.max(0, Math.min(n, Math.round(((at - LEFT) * n) / (W - LEFT - RIGHT)))));
  });
  return graph;
}

// Per written move of the move list (keyed by the ply after it), the first flagged ply it holds.
export function flaggedMoves(turns, plies) {
  const out = new Map();
  let start = 0;
  for (const [, written] of turns) {
    for (const [, end] of written) {
      const flagged = plies.slice(start, end).find((p) => p.flagged);
      if (flagged) out.set(end, flagged);
      start = end;
    }
  }
  return out;
}

// The scratch line's panel: its moves, Take back, Hint, Back to the game.
export function scratchPanel(line, where, hint, { onBack, onHint, onExit }) {
  return h("section.scratch", { id: "scratch" },
    h("h3", {}, `Try a line from ${where}`),
    h("p.small", { id: "scratch-line" }, line.moves.length ? line.moves.join(" ") : "Click the board to play moves for either side."),
    hint,
    h("div.actions", {},
      h("button", { id: "scratch-back", type: "button", disabled: !line.moves.length, onclick: onBack }, "Take back"),
      h("button", { id: "scratch-hint", type: "button", disabled: !!line.pos.over, onclick: onHint }, "Hint"),
      h("button.primary", { id: "scratch-exit", type: "button", onclick: onExit }, "Back to the game")));
}

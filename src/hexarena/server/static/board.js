// The board: the server's SVG inline; legal targets highlighted and clickable; a chooser where one
// cell plays several moves (a drop's directions for the ball, a push's distances, a tile's orientations).
import { h } from "./dom.js";

const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"));

// targets: [{move, cell, picture?}]; pictures: the SVGs that targets' picture indices name (shown in the
// chooser); onPick(move) plays a move; hintCell: a cell to mark as the hint.
export function renderBoard(container, svgText, { targets = [], pictures = [], onPick = null, hintCell = null } = {}) {
  closeChooser();
  container.innerHTML = svgText || "";
  const svg = container.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "board");
  const byCell = new Map();
  if (onPick) {
    for (const t of targets) {
      if (t.cell === null || t.cell === undefined) continue;
      if (!byCell.has(t.cell)) byCell.set(t.cell, []);
      byCell.get(t.cell).push({ move: t.move, picture: pictures[t.picture] });
    }
  }
  const polys = (cell) => svg.querySelectorAll(`polygon[data-cell="${esc(cell)}"]`);
  for (const poly of svg.querySelectorAll("polygon.cell, polygon.ghost")) {
    const cell = poly.dataset.cell;
    if (cell === hintCell) poly.classList.add("hinted");
    const choices = byCell.get(cell);
    if (!choices) continue;
    const moves = choices.map((c) => c.move);
    poly.classList.add("target");
    poly.setAttribute("tabindex", "0");
    poly.setAttribute("role", "button");
    poly.setAttribute("aria-label", moves.length === 1 ? `play ${moves[0]}` : `${cell}: choose ${moves.join(" or ")}`);
    const on = (v) => polys(cell).forEach((p) => p.classList.toggle("hover", v));
    poly.addEventListener("mouseenter", () => on(true));
    poly.addEventListener("mouseleave", () => on(false));
    const pick = () => (moves.length === 1 ? onPick(moves[0]) : openChooser(container, poly, cell, choices, onPick));
    poly.addEventListener("click", pick);
    poly.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        pick();
      }
    });
  }
}

let chooser = null;

export function closeChooser() {
  if (chooser) chooser.remove();
  chooser = null;
}

// A choice's button: the move's picture (if the game draws one) above its name.
function choiceButton({ move, picture }, onPick) {
  const button = h("button.choice", { type: "button", dataset: { move }, onclick: () => { closeChooser(); onPick(move); } });
  if (picture) {
    const art = h("span.choice-picture", { "aria-hidden": "true" });
    art.innerHTML = picture;
    button.append(art);
  }
  button.append(move);
  return button;
}

function openChooser(container, poly, cell, choices, onPick) {
  closeChooser();
  const box = container.getBoundingClientRect();
  const r = poly.getBoundingClientRect();
  chooser = h("div.chooser", { role: "dialog", "aria-label": `moves at ${cell}` },
    h("div.chooser-title", {}, `${cell}: which move?`),
    h(choices.some((c) => c.picture) ? "div.choices.pictured" : "div.choices", {}, choices.map((c) => choiceButton(c, onPick))),
    h("button.cancel", { type: "button", onclick: closeChooser }, "Cancel"));
  chooser.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeChooser();
  });
  container.append(chooser);
  const left = Math.max(0, Math.min(r.left - box.left + r.width, box.width - chooser.offsetWidth));
  chooser.style.left = `${left}px`;
  chooser.style.top = `${Math.max(0, r.top - box.top)}px`;
  chooser.querySelector("button").focus();
}

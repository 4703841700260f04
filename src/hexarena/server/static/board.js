// The board: the server's SVG inline; legal targets highlighted and clickable; a chooser where one
// cell plays several moves (a drop's directions for the ball, a push's distances, a tile's orientations).
import { h } from "./dom.js";

const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"));

const LOSES = "loses at once";
let touched = false; // the last pointer was a finger: a first tap on a move previews it, a second plays it
document.addEventListener("pointerdown", (ev) => { touched = ev.pointerType === "touch"; }, true);
let armed = null; // the move a first tap previewed

// Whether a click plays (false: a first tap on a touch screen, which shows the preview instead).
function plays(key, preview) {
  if (!preview || !touched || armed === key) {
    armed = null;
    return true;
  }
  armed = key;
  preview();
  return false;
}

// targets: [{move, cell, picture?, loses?}]; pictures: the SVGs that targets' picture indices name (shown in the
// chooser); onPick(move) plays a move (a move that loses at once asks first); hintCell: a cell to mark as the
// hint; onHover(move or null, element): a move hovered (focused, tapped once) or left, for its preview;
// onRefused(cell): a click on a cell no move is played by.
export function renderBoard(container, svgText, { targets = [], pictures = [], onPick = null, hintCell = null, onHover = null,
  onRefused = null } = {}) {
  closeChooser();
  armed = null;
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
      byCell.get(t.cell).push({ move: t.move, picture: pictures[t.picture], loses: !!t.loses });
    }
  }
  const play = (c) => {
    if (!c.loses || window.confirm(`${c.move} loses the game at once. Play it anyway?`)) onPick(c.move);
  };
  const polys = (cell) => svg.querySelectorAll(`polygon[data-cell="${esc(cell)}"]`);
  for (const poly of svg.querySelectorAll("polygon.cell, polygon.ghost")) {
    const cell = poly.dataset.cell;
    if (cell === hintCell) poly.classList.add("hinted");
    const choices = byCell.get(cell);
    if (!choices) {
      if (onRefused) poly.addEventListener("click", () => onRefused(cell));
      continue;
    }
    const moves = choices.map((c) => c.move);
    const single = choices.length === 1 ? choices[0] : null;
    poly.classList.add("target");
    poly.setAttribute("tabindex", "0");
    poly.setAttribute("role", "button");
    poly.setAttribute("aria-label", single ? `play ${single.move}` : `${cell}: choose ${moves.join(" or ")}`);
    if (choices.some((c) => c.loses)) {
      poly.classList.add("loses");
      poly.append(svgTitle(single ? `${single.move} ${LOSES}` : `some moves here lose at once`));
    }
    const on = (v) => {
      polys(cell).forEach((p) => p.classList.toggle("hover", v));
      if (onHover) onHover(v && single ? single.move : null, poly);
    };
    for (const [ev, v] of [["mouseenter", true], ["mouseleave", false], ["focus", true], ["blur", false]]) {
      poly.addEventListener(ev, () => on(v));
    }
    const pick = () => (single ? play(single) : openChooser(container, poly, cell, choices, play, onHover));
    poly.addEventListener("click", () => {
      if (!single || plays(cell, onHover && (() => on(true)))) pick();
    });
    poly.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        pick();
      }
    });
  }
}

const svgTitle = (text) => {
  const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
  title.textContent = text;
  return title;
};

let chooser = null;

export function closeChooser() {
  if (chooser) chooser.remove();
  chooser = null;
}

// A choice's button: the move's picture (if the game draws one) above its name; hovered or focused, previewed.
function choiceButton(choice, play, onHover) {
  const { move, picture, loses } = choice;
  const show = onHover && (() => onHover(move, button));
  const button = h(`button.choice${loses ? ".loses" : ""}`, {
    type: "button", dataset: { move }, title: loses ? LOSES : null,
    onclick: () => {
      if (!plays(`choice ${move}`, show)) return;
      closeChooser();
      play(choice);
    },
    onmouseenter: show, onfocus: show,
    onmouseleave: onHover && (() => onHover(null, button)), onblur: onHover && (() => onHover(null, button)),
  });
  if (picture) {
    const art = h("span.choice-picture", { "aria-hidden": "true" });
    art.innerHTML = picture;
    button.append(art);
  }
  button.append(move);
  return button;
}

function openChooser(container, poly, cell, choices, play, onHover) {
  closeChooser();
  const box = container.getBoundingClientRect();
  const r = poly.getBoundingClientRect();
  chooser = h("div.chooser", { role: "dialog", "aria-label": `moves at ${cell}` },
    h("div.chooser-title", {}, `${cell}: which move?`),
    h(choices.some((c) => c.picture) ? "div.choices.pictured" : "div.choices", {}, choices.map((c) => choiceButton(c, play, onHover))),
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

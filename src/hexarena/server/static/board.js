// The board: the server's SVG inline; legal targets highlighted and clickable; a chooser where one
// cell plays several moves (a drop's directions for the ball, a push's distances, a tile's orientations).
import { keyboard, STEPS } from "./board_keys.js";
import { h, svg as svgEl } from "./dom.js";
import { mount } from "./zoom.js";

const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"));

const LOSES = "loses at once";
export const NARROW = "(max-width: 700px)"; // a phone's width (app.css's breakpoint): choosers and previews go under the board
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
// onRefused(cell): a click on a cell no move is played by; title: a title to draw instead of the picture's.
// The board is one tab stop: its cells are named (name, content, what a click plays), the arrow keys move
// between them, Enter or Space plays; focus stays on the board across redraws. A big board zooms (zoom.js).
export function renderBoard(container, svgText, { targets = [], pictures = [], onPick = null, hintCell = null, onHover = null,
  onRefused = null, title = null } = {}) {
  const hadFocus = container.contains(document.activeElement);
  const open = openChoice(); // a redraw (the connection back, a name loaded) keeps an open chooser
  closeChooser();
  armed = null;
  const svg = mount(container, svgText);
  if (!svg) return;
  if (title) retitle(svg, title);
  const byCell = onPick ? choicesByCell(targets, pictures) : new Map();
  const play = (c) => {
    if (!c.loses || window.confirm(`${c.move} loses the game at once. Play it anyway?`)) onPick(c.move);
  };
  const polys = (cell) => svg.querySelectorAll(`polygon[data-cell="${esc(cell)}"]`);
  const actions = new Map(); // cell -> what Enter does
  for (const poly of svg.querySelectorAll("polygon.cell, polygon.ghost")) {
    const cell = poly.dataset.cell;
    if (cell === hintCell) poly.classList.add("hinted");
    const choices = byCell.get(cell);
    if (poly.classList.contains("cell")) nameCell(poly, choices, !!onPick);
    else poly.setAttribute("aria-hidden", "true");
    if (!choices) {
      if (onRefused) {
        poly.addEventListener("click", () => onRefused(cell));
        actions.set(cell, () => onRefused(cell));
      }
      continue;
    }
    const single = choices.length === 1 ? choices[0] : null;
    poly.classList.add("target");
    if (choices.some((c) => c.loses)) {
      poly.classList.add("loses");
      poly.append(svgEl("title", {}, single ? `${single.move} ${LOSES}` : `some moves here lose at once`));
    }
    const on = (v) => {
      polys(cell).forEach((p) => p.classList.toggle("hover", v));
      if (onHover) onHover(v && single ? single.move : null, poly);
    };
    for (const [ev, v] of [["mouseenter", true], ["mouseleave", false], ["focus", true], ["blur", false]]) {
      poly.addEventListener(ev, () => on(v));
    }
    const pick = () => (single ? play(single) : openChooser(container, poly, cell, choices, play, onHover));
    if (open && open.cell === cell && !single && sameMoves(open.moves, choices)) open.again = pick;
    poly.addEventListener("click", () => {
      if (!single || plays(cell, onHover && (() => on(true)))) pick();
    });
    if (!actions.has(cell)) actions.set(cell, pick);
  }
  keyboard(container, svg, actions, hadFocus);
  if (open?.again) {
    open.again();
    const buttons = chooser.box.querySelectorAll("button");
    if (open.focus >= 0) buttons[open.focus].focus();
    else if (open.elsewhere.isConnected) open.elsewhere.focus();
  }
}

// The open chooser as a redraw should bring it back: its cell and moves, the index of the button focused
// (-1: none) and the element focused elsewhere.
function openChoice() {
  if (!chooser) return null;
  const buttons = [...chooser.box.querySelectorAll("button")];
  return { cell: chooser.cell.dataset.cell, moves: buttons.filter((b) => b.dataset.move).map((b) => b.dataset.move),
    focus: buttons.indexOf(document.activeElement), elsewhere: document.activeElement, again: null };
}

const sameMoves = (moves, choices) => moves.length === choices.length && choices.every((c, i) => c.move === moves[i]);

// The picture's title: its text drawn above the first cell (the position's status), or null.
export function titleOf(svg) {
  const first = svg && svg.querySelector("polygon");
  const text = svg && svg.querySelector(":scope > text");
  return text && (!first || text.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) ? text : null;
}

// Draw `title` as the picture's title, the picture widened if it needs (its title is centred).
function retitle(svg, title) {
  const text = titleOf(svg);
  if (!text) return;
  text.textContent = title;
  const vb = svg.viewBox.baseVal;
  const wide = text.getComputedTextLength() + 16;
  if (vb && vb.width && wide > vb.width) svg.setAttribute("viewBox", `${vb.x - (wide - vb.width) / 2} ${vb.y} ${wide} ${vb.height}`);
}

// cell -> [{move, picture, loses}]: the moves a click on the cell plays
function choicesByCell(targets, pictures) {
  const byCell = new Map();
  for (const t of targets) {
    if (t.cell === null || t.cell === undefined) continue;
    if (!byCell.has(t.cell)) byCell.set(t.cell, []);
    byCell.get(t.cell).push({ move: t.move, picture: pictures[t.picture], loses: !!t.loses });
  }
  return byCell;
}

// A cell's accessible name: "f5, black stone, legal: no" (what a click plays where the board takes moves).
function nameCell(poly, choices, active) {
  const cell = poly.dataset.cell;
  const parts = [cell, poly.dataset.content || "empty"];
  if (active) parts.push(`legal: ${legalText(cell, choices)}`);
  poly.setAttribute("role", active ? "button" : "img");
  poly.setAttribute("aria-label", parts.join(", ")); // (a cell of no move is not disabled: a click says why)
}

function legalText(cell, choices) {
  if (!choices) return "no";
  const moves = choices.map((c) => c.move);
  const loses = choices.some((c) => c.loses) ? `, ${choices.length === 1 ? "" : "some "}${LOSES}` : "";
  if (moves.length > 1) return `choose ${moves.join(" or ")}${loses}`;
  return `${moves[0] === cell ? "yes" : `yes, ${moves[0]}`}${loses}`;
}

let chooser = null; // {box, cell}: the open chooser and the cell it belongs to (focus goes back to it)

export function closeChooser() {
  if (!chooser) return;
  if (chooser.box.contains(document.activeElement)) chooser.cell.focus();
  chooser.box.remove();
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
  const frame = container.getBoundingClientRect();
  const r = poly.getBoundingClientRect();
  const box = h("div.chooser", { role: "dialog", "aria-label": `moves at ${cell}` },
    h("div.chooser-title", {}, `${cell}: which move?`),
    h(choices.some((c) => c.picture) ? "div.choices.pictured" : "div.choices", {}, choices.map((c) => choiceButton(c, play, onHover))),
    h("button.cancel", { type: "button", onclick: closeChooser }, "Cancel"));
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeChooser();
    if (!STEPS[ev.key]) return;
    ev.preventDefault();
    ev.stopPropagation();
    const buttons = [...box.querySelectorAll("button")];
    const by = STEPS[ev.key][0] + STEPS[ev.key][1] > 0 ? 1 : -1; // right and down: the next one
    buttons[(buttons.indexOf(document.activeElement) + by + buttons.length) % buttons.length].focus();
  });
  chooser = { box, cell: container.querySelector(`polygon.cell[data-cell="${esc(cell)}"]`) || poly };
  if (window.matchMedia(NARROW).matches) { // a phone: under the board, never over it
    box.classList.add("docked");
    container.after(box);
  } else { // beside the cell (in the board's box, scrolled with it when zoomed)
    container.append(box);
    const [sx, sy] = [container.scrollLeft, container.scrollTop];
    const left = Math.max(sx, Math.min(r.left - frame.left + sx + r.width, sx + frame.width - box.offsetWidth));
    box.style.left = `${left}px`;
    box.style.top = `${Math.max(sy, r.top - frame.top + sy)}px`;
  }
  box.querySelector("button").focus();
}

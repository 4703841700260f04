// The board's keys: one tab stop for the whole board, the arrows between its cells (by their centres), Home and
// End, Enter or Space for the cell's action.
import { svg as svgEl } from "./dom.js";

// the arrows' directions: up and down lean a little right and left, so that of the two cells above (below) the
// right (left) one is chosen and Down undoes Up; a rim cell with only the other one still goes there
export const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0.1, -0.995], ArrowDown: [-0.1, 0.995] };

// A polygon's centre.
function centre(poly) {
  const pts = [...poly.points];
  return [pts.reduce((a, p) => a + p.x, 0) / pts.length, pts.reduce((a, p) => a + p.y, 0) / pts.length];
}

// The cell next to `from` along an arrow key's direction, or null: the nearest cell within 53 degrees of it
// (farther off the direction counting as farther away).
function neighbour(cells, from, [dx, dy]) {
  const [x, y] = centre(from);
  let best = null, bestCost = Infinity;
  for (const c of cells) {
    const [cx, cy] = centre(c);
    const dist = Math.hypot(cx - x, cy - y);
    const cos = dist ? ((cx - x) * dx + (cy - y) * dy) / dist : 0;
    if (cos > 0.6 && dist / cos < bestCost) [best, bestCost] = [c, dist / cos];
  }
  return best;
}

// The board's keys: one tab stop (the last cell focused, else the first target, else the first cell), the
// arrows and Home/End move, Enter/Space does the cell's action; the focus kept if the board had it.
export function keyboard(container, svg, actions, hadFocus) {
  const cells = [...svg.querySelectorAll("polygon.cell")];
  svg.setAttribute("role", cells.length ? "group" : "img");
  svg.setAttribute("aria-label", "board");
  if (!cells.length) return;
  svg.setAttribute("tabindex", "-1"); // (not a tab stop of its own: its cells are)
  const named = (name) => cells.find((c) => c.dataset.cell === name);
  let current = named(container.dataset.cell) || cells.find((c) => c.classList.contains("target")) || cells[0];
  const move = (to) => {
    current.setAttribute("tabindex", "-1");
    current = to;
    current.setAttribute("tabindex", "0");
    container.dataset.cell = to.dataset.cell;
  };
  cells.forEach((c) => c.setAttribute("tabindex", c === current ? "0" : "-1"));
  const ring = svgEl("polygon.focus-ring", { "aria-hidden": "true" }); // drawn last: over the stones and the neighbours
  svg.addEventListener("focusin", (ev) => {
    if (!cells.includes(ev.target)) return;
    move(ev.target);
    ev.target.scrollIntoView({ block: "nearest", inline: "nearest" }); // (a zoomed board's box scrolls to it)
    ring.setAttribute("points", ev.target.getAttribute("points"));
    if (ev.target.matches(":focus-visible")) svg.append(ring);
  });
  svg.addEventListener("focusout", () => ring.remove());
  const act = () => actions.get(current.dataset.cell)?.();
  svg.addEventListener("keydown", (ev) => {
    const to = ev.key === "Home" ? cells[0] : ev.key === "End" ? cells[cells.length - 1]
      : STEPS[ev.key] ? neighbour(cells, current, STEPS[ev.key]) : null;
    if (!to && !STEPS[ev.key] && ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    ev.stopPropagation(); // the board's keys, not the page's (a replay's or a sample's arrows)
    if (to) to.focus();
    if (ev.key === "Enter") act();
  });
  // Space acts when let go, as a button does (else its keyup would press the chooser's first button)
  svg.addEventListener("keyup", (ev) => { if (ev.key === " ") act(); });
  if (hadFocus) current.focus();
}

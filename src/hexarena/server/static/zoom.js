// Zoom for big boards (more than BIG cells, counted from the SVG): Zoom in, Zoom out and Fit buttons above the
// board, a two-finger pinch (Pointer Events) or Ctrl+wheel on it; zoomed, the board's box scrolls (one finger
// pans it). The zoom of a board's container is kept across its redraws.
import { h } from "./dom.js";

const BIG = 150; // cells: a board of more gets the zoom
const STEP = 1.5; // a button's factor
const TOUCH = 40; // px: the first Zoom in makes a cell at least this big (a fingertip's target)
const LARGEST = 120; // px: no cell is drawn bigger
const zooms = new WeakMap(); // container -> {zoom, fit, cell, controls}

// Put svgText in the container (its old scroll kept) and zoom it as before; the svg element, or null.
export function mount(container, svgText) {
  const z = zooms.get(container);
  const scroll = [container.scrollLeft, container.scrollTop];
  container.innerHTML = svgText || "";
  const svg = container.querySelector("svg");
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
  }
  if (!svg || svg.querySelectorAll("polygon.cell").length <= BIG || !container.parentNode) {
    if (z) unzoom(container, z);
    return svg;
  }
  const st = z || setUp(container);
  apply(container, st);
  [container.scrollLeft, container.scrollTop] = scroll;
  return svg;
}

function unzoom(container, z) {
  z.controls.remove();
  container.classList.remove("zoomable", "zoomed");
  delete container.dataset.zoom;
  z.zoom = 1;
}

function setUp(container) {
  const button = (label, text, by) => h("button.zoom", { type: "button", "aria-label": label, title: label,
    onclick: (ev) => {
      if (ev.currentTarget.getAttribute("aria-disabled") !== "true") zoomTo(container, by(st.zoom));
    } }, text);
  const st = { zoom: 1, fit: 0, cell: 0 };
  st.controls = h("div.zoom-controls", { role: "group", "aria-label": "board zoom" },
    button("Zoom in", "+", (z) => (z > 1 ? z * STEP : Math.max(STEP, TOUCH / st.cell))),
    button("Zoom out", "−", (z) => z / STEP),
    button("Fit", "Fit", () => 1));
  zooms.set(container, st);
  pinch(container);
  container.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey || !container.classList.contains("zoomable")) return; // (a trackpad's pinch, or Ctrl+wheel)
    ev.preventDefault();
    zoomTo(container, st.zoom * Math.exp(-ev.deltaY / 200), [ev.clientX, ev.clientY]);
  }, { passive: false });
  return st;
}

// Draw the board at st.zoom: its width the fit width (measured at fit) times the zoom.
function apply(container, st) {
  if (!st.controls.isConnected || st.controls.nextElementSibling !== container) container.before(st.controls);
  container.classList.add("zoomable");
  container.classList.remove("zoomed");
  const svg = container.querySelector("svg");
  svg.style.width = "";
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const fitted = vb && vb.width && vb.height ? Math.min(box.width, (box.height * vb.width) / vb.height) : box.width;
  const cell = svg.querySelector("polygon.cell").getBoundingClientRect();
  if (fitted > 0) {
    st.fit = fitted;
    st.cell = Math.max(1, Math.min(cell.width, cell.height)); // (at fit: a cell's size on the screen)
  }
  st.zoom = clamp(st, st.zoom);
  if (st.zoom > 1) {
    container.classList.add("zoomed");
    svg.style.width = `${Math.round(st.fit * st.zoom)}px`;
  }
  container.dataset.zoom = st.zoom.toFixed(2);
  const [zin, zout, fit] = st.controls.children;
  zin.setAttribute("aria-disabled", String(st.zoom >= most(st) - 0.01));
  zout.setAttribute("aria-disabled", String(st.zoom <= 1));
  fit.setAttribute("aria-disabled", String(st.zoom <= 1));
}

const most = (st) => Math.max(1, LARGEST / (st.cell || LARGEST));
const clamp = (st, z) => (z < 1.05 ? 1 : Math.min(z, most(st)));

// Zoom the container's board to z, keeping the board's point under `at` (client x, y; the box's centre) there.
export function zoomTo(container, z, at = null) {
  const st = zooms.get(container);
  const svg = container.querySelector("svg");
  if (!st || !svg) return;
  const frame = container.getBoundingClientRect();
  const [x, y] = at || [frame.left + container.clientWidth / 2, frame.top + container.clientHeight / 2];
  const before = svg.getBoundingClientRect();
  const fx = (x - before.left) / before.width, fy = (y - before.top) / before.height;
  st.zoom = z;
  apply(container, st);
  const after = svg.getBoundingClientRect();
  container.scrollLeft += after.left + fx * after.width - x;
  container.scrollTop += after.top + fy * after.height - y;
}

// Two fingers on the board zoom it by how far they spread, about their midpoint (one finger pans the box: the
// browser's own scrolling, which touch-action leaves it).
function pinch(container) {
  const down = new Map(); // pointerId -> [x, y]
  let start = null; // {spread, zoom}
  const spread = () => {
    const [[ax, ay], [bx, by]] = [...down.values()];
    return Math.hypot(ax - bx, ay - by);
  };
  const middle = () => {
    const [[ax, ay], [bx, by]] = [...down.values()];
    return [(ax + bx) / 2, (ay + by) / 2];
  };
  container.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "touch" || !container.classList.contains("zoomable")) return;
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (down.size === 2) start = { spread: spread(), zoom: zooms.get(container).zoom };
  });
  container.addEventListener("pointermove", (ev) => {
    if (!down.has(ev.pointerId)) return;
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (!start || down.size !== 2 || !start.spread) return;
    ev.preventDefault();
    zoomTo(container, start.zoom * (spread() / start.spread), middle());
  });
  const up = (ev) => {
    down.delete(ev.pointerId);
    if (down.size < 2) start = null;
  };
  for (const kind of ["pointerup", "pointercancel", "pointerleave"]) container.addEventListener(kind, up);
}

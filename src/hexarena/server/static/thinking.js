// The AI's thinking line: "AI level 10 is thinking… 3 s (at most 7 s) · 2 steps of this turn played", its
// seconds counted from the start of the AI's turn (tick() each second), its steps played only once there are
// some. Not a live region: said() gives the words to announce once, when a turn's thinking starts.
import { serverNow } from "./api.js";
import { aiName, h } from "./dom.js";

let since = { key: null, at: 0, said: false }; // the AI turn counted: match, turn, mover; its start (server ms)

const keyOf = (m) => `${m.id}:${m.turn}:${m.to_move}`;
const seconds = () => Math.max(0, Math.floor((serverNow() - since.at) / 1000));
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const bound = (s) => (Number.isInteger(s) ? String(s) : s.toFixed(1));

function who(m) {
  const seat = (m.seat_info || [])[m.to_move];
  return seat && seat.kind === "ai" && seat.level ? aiName(seat.level) : "The AI";
}

// Start counting if m is a new AI turn (from the match's last change when its first step is still to come).
function follow(m) {
  const key = keyOf(m);
  if (since.key === key) return;
  const changed = Date.parse(m.updated || "");
  const at = !m.step && changed && changed <= serverNow() ? changed : serverNow();
  since = { key, at, said: false };
}

// The line (null when no AI is thinking).
export function thinkingLine(m) {
  if (!m.thinking) return null;
  follow(m);
  const most = typeof m.thinking_seconds === "number" ? ` (at most ${bound(m.thinking_seconds)} s)` : "";
  const steps = m.step > 0 ? ` · ${plural(m.step, "step")} of this turn played` : "";
  return h("p.thinking", { id: "thinking" }, h("span.spinner", { "aria-hidden": "true" }),
    h("span", {}, `${who(m)} is thinking… `, h("span.thinking-seconds", { id: "thinking-seconds" }, `${seconds()} s`), most, steps));
}

// Count on (every second or so).
export function tick(root) {
  const el = root.querySelector("#thinking-seconds");
  if (el) el.textContent = `${seconds()} s`;
}

// The words to announce for m: once per AI turn, when its thinking is first seen; else "".
export function said(m) {
  if (!m.thinking) return "";
  follow(m);
  if (since.said) return "";
  since.said = true;
  return `${who(m)} is thinking.`;
}

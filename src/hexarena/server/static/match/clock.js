// The match's clocks: each seat's remaining time (ticking while it runs, low under 10 s, said once a turn to a
// screen reader) or the deadline of its move in correspondence.
import { serverNow } from "../api.js";
import { cap, h, seatName } from "../dom.js";
import { timeLeft } from "../people.js";
import { tick } from "../thinking.js";

const LOW = 10; // seconds

// m:ss (h:mm:ss from an hour), tenths under 10 s
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return ` ${s.toFixed(1)} s`;
  const whole = Math.ceil(s), hr = Math.floor(whole / 3600), min = Math.floor((whole % 3600) / 60), sec = whole % 60;
  const pad = (x) => String(x).padStart(2, "0");
  return hr ? ` ${hr}:${pad(min)}:${pad(sec)}` : ` ${min}:${pad(sec)}`;
}

const secondsTo = (deadline) => (Date.parse(deadline) - serverNow()) / 1000;
const known = (x) => x !== null && x !== undefined;

// a seat's clock: its remaining time (ticking while it runs), or the deadline of its move
export function clockOf(m, p) {
  const c = m.clock;
  if (!c || m.over) return null;
  const running = c.running === p;
  if (c.remaining && known(c.remaining[p]) && !(m.time_control && m.time_control.days)) {
    const left = running && c.deadline ? secondsTo(c.deadline) : c.remaining[p];
    return h("span.clock", { class: `clock${running ? " running" : ""}${left < LOW ? " low" : ""}`, role: "timer",
      dataset: { seat: String(p) } }, clockText(left));
  }
  return running && c.deadline ? h("span.deadline", { id: "deadline" }, ` · ${timeLeft(c.deadline)}`) : null;
}

// says once a turn that the running clock fell under 10 s
function warnLow(ctrl, alert, p, left) {
  const key = `${ctrl.match.turn}:${p}`;
  if (left >= LOW || ctrl.warned.has(key)) return;
  ctrl.warned.add(key);
  const who = ctrl.mine().includes(p) ? "You have" : `${cap(seatName(p, ctrl.players))} has`;
  alert.textContent = `${who} ${Math.ceil(Math.max(0, left))} seconds left`;
}

// the running clock (and the AI's thinking seconds) counted on in `panel`
function tickClocks(ctrl, panel, alert) {
  tick(panel);
  const m = ctrl.match, c = m && m.clock;
  if (!c || !known(c.running) || m.over) return;
  for (const el of panel.querySelectorAll(".clock.running, #deadline")) {
    const left = secondsTo(c.deadline);
    if (el.id === "deadline") {
      el.textContent = ` · ${timeLeft(c.deadline)}`;
      continue;
    }
    el.textContent = clockText(left);
    el.classList.toggle("low", left < LOW);
    warnLow(ctrl, alert, c.running, left);
  }
}

// Tick twice a second; the function that stops it.
export function startClocks(ctrl, panel, alert) {
  const ticker = setInterval(() => tickClocks(ctrl, panel, alert), 500);
  return () => clearInterval(ticker);
}

// The turn builder: the steps of my turn staged on the page (each previewed by the server, a Line), taken back
// one by one or all, and sent together by Confirm (POST /turn): a misclick never reaches the server.
import { h } from "./dom.js";

const SETTING = "hexarena.builder";
const wanted = () => localStorage.getItem(SETTING) === "on";

// Online (one seat mine, the other a person's) and in correspondence the builder is always on; in hot-seat
// and against the AI, the setting says.
function always(m, mine) {
  const ai = m.seat_info.some((s) => s.kind === "ai");
  return (mine.length === 1 && !ai) || !!(m.time_control && m.time_control.days);
}

export const builderOn = (m, mine) => always(m, mine) || wanted();

// The setting, for the matches where it applies (null elsewhere); onChange() after a change.
export function builderSetting(m, mine, onChange) {
  if (!mine.length || m.over || always(m, mine)) return null;
  return h("label.setting", {},
    h("input", { type: "checkbox", id: "builder-setting", checked: wanted(), onchange: (ev) => {
      localStorage.setItem(SETTING, ev.target.checked ? "on" : "off");
      onChange();
    } }),
    " Build each turn, then confirm it");
}

// The staged steps, each removable, with Confirm (once they end the turn) and Clear.
export function stagedBox(line, { onRemove, onConfirm, onClear }) {
  const done = !!line.pos.turn_done;
  const steps = line.moves.map((mv, i) => h("li.step", { dataset: { move: mv } }, mv,
    h("button.remove", { type: "button", "aria-label": `take back ${mv}`, title: "Take back", onclick: () => onRemove(i) }, "×")));
  const note = done ? "The turn is complete: Confirm sends it." : line.moves.length ? "More steps follow." : "Click the board: your steps stay here until you confirm.";
  return h("section.staged", { id: "staged", "aria-label": "your turn" },
    steps.length ? h("ol.steps", { id: "staged-steps" }, steps) : null,
    h("p.small.muted", {}, note),
    h("div.actions", {},
      h("button.primary", { id: "confirm", type: "button", disabled: !done, onclick: onConfirm }, "Confirm"),
      h("button", { id: "clear", type: "button", disabled: !line.moves.length, onclick: onClear }, "Clear")));
}

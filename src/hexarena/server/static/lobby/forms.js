// The new-match form's fields: a game's options, and the mode (against the AI, hot-seat, online, or a seek) with
// the seats it asks for.
import { h } from "../dom.js";
import { levelInput, range, seekFields } from "./seek_fields.js";

// An option's input: a choice list for "a | b | c" (or an array), a number, or comma-separated integers.
export function optionInput(name, opt) {
  const id = `opt-${name}`;
  const allowed = opt.allowed;
  const choices = Array.isArray(allowed) ? allowed
    : typeof allowed === "string" && allowed.includes(" | ") ? allowed.split(" | ").map((s) => s.trim()) : null;
  let input;
  if (choices) {
    input = h("select", { id, name },
      choices.map((c) => h("option", { value: String(c), selected: String(c) === String(opt.default) }, String(c))));
  } else if (typeof opt.default === "number") {
    const m = typeof allowed === "string" ? allowed.match(/from (-?\d+) to (-?\d+)/) : null;
    input = h("input", { id, name, type: "number", value: String(opt.default), min: m ? m[1] : null, max: m ? m[2] : null });
  } else {
    const text = Array.isArray(opt.default) ? opt.default.join(",") : String(opt.default ?? "");
    input = h("input", { id, name, type: "text", value: text });
  }
  input.dataset.kind = Array.isArray(opt.default) ? "list" : typeof opt.default;
  const help = [typeof allowed === "string" ? allowed : null, opt.doc].filter(Boolean).join(" — ");
  return h("div.field", {}, h("label", { for: id }, name), input, help ? h("small.muted", {}, help) : null);
}

export function readOption(input) {
  const v = input.value.trim();
  if (input.dataset.kind === "number") return v === "" ? v : Number(v);
  if (input.dataset.kind === "list") return v.split(/[,\s]+/).filter(Boolean).map((x) => (/^-?\d+$/.test(x) ? Number(x) : x));
  return v;
}

// The seats of a mode: "ai" (with level and my seat), "hotseat", "online".
function seatsFor(mode, level, first) {
  const other = mode === "ai" ? `ai:${level}` : mode === "online" ? "open" : "me";
  return first ? ["me", other] : [other, "me"];
}

// The mode's fieldset (`levels`: the AI's, GET /api/games' ai_levels); a seek too where `clocks` (the time controls'
// bounds) are given.
export function modeFieldset(prefix, levels, clocks = null) {
  const seeking = clocks !== null;
  const radios = [["ai", "Against the AI"], ["hotseat", "Hot-seat (both sides here)"], ["online", "Online (share a link)"]];
  if (seeking) radios.push(["seek", "Seek a player (lobby or challenge)"]);
  const level = levelInput(`${prefix}-level`, levels);
  level.name = "level";
  const seat = h("select", { id: `${prefix}-seat`, name: "seat" },
    h("option", { value: "first" }, "I play first"), h("option", { value: "second" }, "I play second"));
  const fs = h("fieldset.mode", {},
    h("legend", {}, "Mode"),
    radios.map(([v, text], i) => h("label.radio", {},
      h("input", { type: "radio", name: `${prefix}-mode`, value: v, checked: i === 0 }), " ", text)),
    h("div.row", {},
      h("div.field.level", {}, h("label", { for: `${prefix}-level` }, `AI level (${range(levels)})`), level),
      h("div.field.myseat", {}, h("label", { for: `${prefix}-seat` }, "My seat"), seat)));
  const seek = seeking ? seekFields(prefix, clocks, levels) : null;
  if (seek) fs.append(seek);
  const update = () => {
    const mode = fs.querySelector(`input[name=${prefix}-mode]:checked`).value;
    fs.querySelector(".level").hidden = mode !== "ai";
    fs.querySelector(".myseat").hidden = mode === "seek";
    seat.disabled = mode === "hotseat";
    if (seek) seek.hidden = mode !== "seek";
    const submit = fs.closest("form")?.querySelector("button[type=submit]");
    if (submit && submit.id === "create") submit.textContent = mode === "seek" ? "Post seek" : "Start match";
  };
  fs.mode = () => fs.querySelector(`input[name=${prefix}-mode]:checked`).value;
  fs.seek = () => seek.seek();
  fs.addEventListener("change", update);
  queueMicrotask(update);
  fs.seats = () => {
    const mode = fs.querySelector(`input[name=${prefix}-mode]:checked`).value;
    const lv = Math.max(levels.min, Math.min(levels.max, Number(level.value) || levels.min));
    return seatsFor(mode, lv, seat.value === "first");
  };
  return fs;
}

// A seek's fields (time limit within the server's bounds, rated or casual, colour, opponent), and how the lobby
// writes a time control.
import { h } from "../dom.js";

// A time control as the lobby writes it: "3 days a move", "5 min + 3 s", "no time limit".
export function controlText(c) {
  if (!c) return "no time limit";
  if (c.days) return `${c.days} day${c.days > 1 ? "s" : ""} a move`;
  return `${c.initial / 60 >= 1 && c.initial % 60 === 0 ? `${c.initial / 60} min` : `${c.initial} s`} + ${c.increment} s`;
}

// How ratings and clocks work, beside the seek's fields.
const EXPLAINED = [
  "Ratings are Glicko-2, one per game: everyone starts at 1500, and a rating shows “?” while provisional "
    + "(its deviation, the uncertainty, over 110: a new player's is 350).",
  "A rated game changes both players' ratings once, when it ends (by resignation or on time too); a game that ends "
    + "before both sides moved is aborted and changes nothing.",
  "Real-time clocks: initial minutes plus seconds added a turn. Your clock runs through all the steps of your turn "
    + "and gets the increment once a turn. The server alone judges time: who runs out loses.",
  "Correspondence: a number of days for each move.",
];
const explained = () => h("details.explain", {}, h("summary", {}, "How ratings and clocks work"), EXPLAINED.map((t) => h("p.small", {}, t)));

// The opponent of a seek: anyone (an open seek), a player by name, or an AI level (the match starts at once).
function opponentFields(prefix, levels) {
  const who = h("select", { id: `${prefix}-opponent` },
    h("option", { value: "anyone" }, "Anyone (an open seek)"), h("option", { value: "player" }, "A player by name"),
    h("option", { value: "ai" }, `The AI (levels ${range(levels)})`));
  const to = h("input", { id: `${prefix}-to`, maxLength: 20, autocomplete: "off" });
  const level = levelInput(`${prefix}-ai-level`, levels);
  const toField = h("div.field", {}, h("label", { for: `${prefix}-to` }, "Player's name"), to);
  const levelField = h("div.field", {}, h("label", { for: `${prefix}-ai-level` }, `AI level (${range(levels)})`), level);
  const update = () => {
    toField.hidden = who.value !== "player";
    levelField.hidden = who.value !== "ai";
  };
  who.addEventListener("change", update);
  update();
  const box = h("div.row", {}, h("div.field", {}, h("label", { for: `${prefix}-opponent` }, "Opponent"), who), toField, levelField);
  box.to = () => (who.value === "player" ? to.value.trim() || null : who.value === "ai" ? `ai-${level.value}` : null);
  return box;
}

// A number input within `bounds` ({min, max} in the server's unit; `per` of them make the input's unit: 60 s a
// minute), and the range in words.
const bounded = (id, { min, max }, value, per = 1, step = null) => h("input", { id, type: "number", min: String(min / per),
  max: String(max / per), step, value });
export const range = ({ min, max }) => `${min}–${max}`;

// An AI level's input within `levels` (GET /api/games' ai_levels), 3 to begin with.
export const levelInput = (id, levels) => h("input", { id, type: "number", min: String(levels.min), max: String(levels.max),
  value: "3" });

// The time limit's fields within `clocks` (GET /api/games' time_control bounds): the kind (correspondence, real
// time, or none where `untimed`), days or minutes and seconds, and Rated; box.clock() the clock a seek or an event
// posts, box.rated() whether it is rated. The ids start with `prefix`.
export function clockFields(prefix, clocks, untimed = true) {
  const kind = h("select", { id: `${prefix}-clock`, name: "clock" },
    h("option", { value: "days" }, "Correspondence (days a move)"),
    h("option", { value: "live" }, "Real time (minutes + seconds a turn)"),
    untimed ? h("option", { value: "none" }, "No time limit") : null);
  const days = bounded(`${prefix}-days`, clocks.days, "3");
  const minutes = bounded(`${prefix}-minutes`, clocks.initial, "5", 60, "0.25");
  const increment = bounded(`${prefix}-increment`, clocks.increment, "3");
  const rated = h("input", { id: `${prefix}-rated`, type: "checkbox" });
  const daysField = h("div.field", {}, h("label", { for: `${prefix}-days` }, `Days a move (${range(clocks.days)})`), days);
  const liveField = h("div.row", {},
    h("div.field", {}, h("label", { for: `${prefix}-minutes` }, "Minutes"), minutes),
    h("div.field", {}, h("label", { for: `${prefix}-increment` }, "Seconds added a turn"), increment));
  const update = () => {
    daysField.hidden = kind.value !== "days";
    liveField.hidden = kind.value !== "live";
  };
  kind.addEventListener("change", update);
  update();
  const box = h("div.clock-fields", {}, h("div.field", {}, h("label", { for: `${prefix}-clock` }, "Time limit"), kind),
    daysField, liveField, h("label.radio", { for: `${prefix}-rated` }, rated, " Rated"));
  box.clock = () => (kind.value === "days" ? { days: Number(days.value) }
    : kind.value === "live" ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null);
  box.rated = () => rated.checked;
  return box;
}

// The seek's own fields: the opponent (an AI within `levels`), the time limit and rated (clockFields), my colour.
export function seekFields(prefix, clocks, levels) {
  const clock = clockFields(prefix, clocks);
  const colour = h("select", { id: `${prefix}-colour` },
    h("option", { value: "random" }, "Random"), h("option", { value: "first" }, "I play first"), h("option", { value: "second" }, "I play second"));
  const opponent = opponentFields(prefix, levels);
  const box = h("div.seek-fields", {}, opponent, clock,
    h("div.field", {}, h("label", { for: `${prefix}-colour` }, "My colour"), colour), explained());
  box.seek = () => ({ clock: clock.clock(), rated: clock.rated(), colour: colour.value, to: opponent.to() });
  return box;
}

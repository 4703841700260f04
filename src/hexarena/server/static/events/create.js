// The form that creates an event: its name, the game and its options (the lobby's fields), the format (and the
// rounds of a Swiss), the time limit and rated (the seek's fields), the cap, a rating range and the start.
import { h } from "../dom.js";
import { optionInput, readOption } from "../lobby/forms.js";
import { clockFields } from "../lobby/seek_fields.js";
import { createEvent, eventHref } from "./calls.js";
import { FORMATS } from "./words.js";

const field = (id, label, input, help) => h("div.field", {}, h("label", { for: id }, label), input,
  help ? h("small.muted", {}, help) : null);
const number = (id, attrs = {}) => h("input", { id, type: "number", inputMode: "numeric", ...attrs });

// The game's choice with its options and its time limit below it, both drawn again for the game chosen.
function gameFields(games) {
  const game = h("select", { id: "ev-game", required: true }, games.map((g) => h("option", { value: g.name }, g.name)));
  const options = h("fieldset.options", {}, h("legend", {}, "Options"));
  const clockBox = h("div");
  const box = h("div.event-game", {}, field("ev-game", "Game", game), options, clockBox);
  const draw = () => {
    const g = games.find((x) => x.name === game.value);
    const inputs = Object.entries(g.options || {}).map(([k, o]) => optionInput(k, o));
    options.replaceChildren(h("legend", {}, "Options"), ...inputs);
    options.hidden = !inputs.length;
    box.clock = clockFields("ev", g.time_control, false); // (an event's games always have a clock)
    clockBox.replaceChildren(box.clock);
  };
  game.addEventListener("change", draw);
  draw();
  box.read = () => {
    const opts = {};
    for (const input of options.querySelectorAll("input, select")) opts[input.name] = readOption(input);
    return { game: game.value, options: opts, clock: box.clock.clock(), rated: box.clock.rated() };
  };
  return box;
}

// The format, with the number of rounds for a Swiss (the others compute theirs).
function formatFields() {
  const format = h("select", { id: "ev-format" }, Object.entries(FORMATS).map(([v, text]) => h("option", { value: v }, text)));
  const rounds = number("ev-rounds", { min: "1", value: "3" });
  const roundsField = field("ev-rounds", "Rounds", rounds, "a round robin or a knockout computes its own");
  const update = () => { roundsField.hidden = format.value !== "swiss"; };
  format.addEventListener("change", update);
  format.value = "swiss";
  update();
  const box = h("div.row", {}, field("ev-format", "Format", format), roundsField);
  box.read = () => ({ format: format.value, ...(format.value === "swiss" ? { rounds: Number(rounds.value) } : {}) });
  return box;
}

// Who may enter: a cap on the players and a range of ratings in the event's game (both optional).
function entryFields() {
  const most = number("ev-max", { min: "2", placeholder: "no cap" });
  const low = number("ev-rating-lo", { min: "0", step: "50", placeholder: "any" });
  const high = number("ev-rating-hi", { min: "0", step: "50", placeholder: "any" });
  const box = h("div.row", {}, field("ev-max", "Most players", most),
    field("ev-rating-lo", "Lowest rating", low), field("ev-rating-hi", "Highest rating", high));
  box.read = () => ({
    ...(most.value ? { max_players: Number(most.value) } : {}),
    ...(low.value || high.value ? { rating_range: [Number(low.value || 0), Number(high.value || 9999)] } : {}),
  });
  return box;
}

// The start: by its creator's button, or at a set time (this browser's local time, sent as UTC).
function startFields() {
  const how = h("select", { id: "ev-start" }, h("option", { value: "creator" }, "I start it"),
    h("option", { value: "at" }, "At a set time"));
  const at = h("input", { id: "ev-starts", type: "datetime-local" });
  const atField = field("ev-starts", "Starts at (your local time)", at);
  const update = () => { atField.hidden = how.value !== "at"; };
  how.addEventListener("change", update);
  update();
  const box = h("div.row", {}, field("ev-start", "Start", how), atField);
  box.read = () => {
    if (how.value !== "at") return { starts: null };
    if (!at.value) throw new Error("choose when the event starts, or let its creator start it");
    return { starts: new Date(at.value).toISOString() };
  };
  return box;
}

// `games`: GET /api/games
export function createForm(games) {
  const name = h("input", { id: "ev-name", required: true, autocomplete: "off", placeholder: "e.g. Sunday blitz" });
  const parts = [gameFields(games), formatFields(), entryFields(), startFields()];
  const err = h("p.error", { role: "alert" });
  const submit = async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    try {
      const body = Object.assign({ name: name.value.trim() }, ...parts.map((p) => p.read()));
      location.hash = eventHref((await createEvent(body)).id);
    } catch (e) {
      err.textContent = e.message;
    }
  };
  return h("form.create-event-form", { onsubmit: submit }, h("h2", {}, "Create an event"),
    field("ev-name", "Name", name), ...parts,
    h("p.small.muted", {}, "Creating an event does not enter you: join it from its page like everyone."),
    h("button.primary", { type: "submit", id: "ev-create" }, "Create the event"), err);
}

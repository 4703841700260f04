// The lobby's cards: a game's panel (its picture, rules, options and the new-match form), the import of a
// record, and the lists of open and recent matches.
import * as api from "../api.js";
import { h, optionsText } from "../dom.js";
import { gamePicture } from "../learn.js";
import { modeFieldset, optionInput, readOption } from "./forms.js";

export const matchHref = (id) => `#/match/${encodeURIComponent(id)}`;

async function enter(res) {
  api.keepSeat(res.id, res.token, res.seats);
  location.hash = matchHref(res.id);
}

// A game's picture, its character in a line, and whether it is the suggested first game (from /api/learn).
function gameIntro(intro) {
  return h("div.game-intro", {}, gamePicture(intro.svg),
    h("p", {}, intro.first ? h("span.first-badge", {}, "start here") : null, " ", intro.tagline));
}

export function gamePanel(game, signedIn, onSeek, intro) {
  const opts = Object.entries(game.options || {}).map(([k, o]) => optionInput(k, o));
  const mode = modeFieldset("new", game.ai_levels, signedIn ? game.time_control : null);
  const err = h("p.error", { role: "alert" });
  const form = h("form.newmatch", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const options = {};
      for (const input of form.querySelectorAll(".options input, .options select")) options[input.name] = readOption(input);
      try {
        if (mode.mode() === "seek") {
          const seek = await api.postSeek({ game: game.name, options, ...mode.seek() });
          if (seek.match) location.hash = matchHref(seek.match); // an AI accepts at once
          else onSeek();
          return;
        }
        await enter(await api.createMatch(game.name, options, mode.seats()));
      } catch (e) {
        err.textContent = e.message;
      }
    },
  },
  h("h2", {}, game.name),
  h("p", {}, h("a.howto", { href: `#/learn/${encodeURIComponent(game.name)}` }, "How to play")),
  intro ? gameIntro(intro) : null,
  game.rules ? h("details.rules", {}, h("summary", {}, "Rules"), h("pre", {}, game.rules)) : null,
  opts.length ? h("fieldset.options", {}, h("legend", {}, "Options"), opts) : null,
  mode,
  h("button.primary", { type: "submit", id: "create" }, "Start match"),
  err);
  return form;
}

// `levels`: the AI's (GET /api/games' ai_levels)
export function importPanel(levels) {
  const file = h("input", { type: "file", id: "import-file", accept: ".json,.txt,application/json,text/plain" });
  const text = h("textarea", { id: "import-text", rows: "3", placeholder: "a text record ([game option=value] 1. move 2. move,move *) or a JSON record" });
  const mode = modeFieldset("imp", levels);
  const err = h("p.error", { role: "alert" });
  file.addEventListener("change", async () => {
    if (file.files.length) text.value = await file.files[0].text();
  });
  const form = h("form.import", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const raw = text.value.trim();
      if (!raw) {
        err.textContent = "choose a record file or paste a record";
        return;
      }
      let record = raw;
      if (raw.startsWith("{")) {
        try {
          record = JSON.parse(raw);
        } catch (e) {
          err.textContent = `the JSON record does not parse: ${e.message}`;
          return;
        }
      }
      try {
        await enter(await api.importMatch(record, mode.seats()));
      } catch (e) {
        err.textContent = e.message;
      }
    },
  },
  h("h2", {}, "Continue a record"),
  h("div.field", {}, h("label", { for: "import-file" }, "Record file (.json or .txt)"), file),
  h("div.field", {}, h("label", { for: "import-text" }, "…or paste it"), text),
  mode,
  h("button", { type: "submit", id: "import" }, "Import"),
  err);
  return form;
}

export function matchList(title, which) {
  const list = h("ul.matches", { id: `list-${which}` }, h("li.muted", {}, "loading…"));
  const load = () => api.listMatches(which).then((rows) => {
    list.replaceChildren(...(rows.length ? rows.map((m) => {
      const opts = optionsText(m.options);
      const mine = api.mySeat(m.id);
      const verb = mine ? "Resume" : which === "open" ? "Join" : "Watch";
      return h("li", {},
        h("a", { href: matchHref(m.id) }, `${verb}: ${m.game}`),
        h("span.muted", {}, ` ${opts} · ply ${m.ply} · ${m.status || ""}`));
    }) : [h("li.muted", {}, "none")]));
  }).catch((e) => list.replaceChildren(h("li.error", {}, e.message)));
  load();
  const card = h("section.card", {}, h("h2", {}, title), list);
  card.refresh = load;
  return card;
}

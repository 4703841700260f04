// The lobby: the games with their options and rules, the new-match form, import, open and recent matches.
import * as api from "./api.js";
import { h } from "./dom.js";

// An option's input: a choice list for "a | b | c" (or an array), a number, or comma-separated integers.
function optionInput(name, opt) {
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

function readOption(input) {
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

function modeFieldset(prefix) {
  const radios = [["ai", "Against the AI"], ["hotseat", "Hot-seat (both sides here)"], ["online", "Online (share a link)"]];
  const level = h("input", { type: "number", min: "1", max: "10", value: "3", id: `${prefix}-level`, name: "level" });
  const seat = h("select", { id: `${prefix}-seat`, name: "seat" },
    h("option", { value: "first" }, "I play first"), h("option", { value: "second" }, "I play second"));
  const fs = h("fieldset.mode", {},
    h("legend", {}, "Mode"),
    radios.map(([v, text], i) => h("label.radio", {},
      h("input", { type: "radio", name: `${prefix}-mode`, value: v, checked: i === 0 }), " ", text)),
    h("div.row", {},
      h("div.field.level", {}, h("label", { for: `${prefix}-level` }, "AI level (1–10)"), level),
      h("div.field", {}, h("label", { for: `${prefix}-seat` }, "My seat"), seat)));
  const update = () => {
    const mode = fs.querySelector(`input[name=${prefix}-mode]:checked`).value;
    fs.querySelector(".level").hidden = mode !== "ai";
    seat.disabled = mode === "hotseat";
  };
  fs.addEventListener("change", update);
  update();
  fs.seats = () => {
    const mode = fs.querySelector(`input[name=${prefix}-mode]:checked`).value;
    const lv = Math.max(1, Math.min(10, Number(level.value) || 1));
    return seatsFor(mode, lv, seat.value === "first");
  };
  return fs;
}

async function enter(res) {
  api.keepSeat(res.id, res.token, res.seats);
  location.hash = `#/match/${encodeURIComponent(res.id)}`;
}

function gamePanel(game) {
  const opts = Object.entries(game.options || {}).map(([k, o]) => optionInput(k, o));
  const mode = modeFieldset("new");
  const err = h("p.error", { role: "alert" });
  const form = h("form.newmatch", {
    onsubmit: async (ev) => {
      ev.preventDefault();
      err.textContent = "";
      const options = {};
      for (const input of form.querySelectorAll(".options input, .options select")) options[input.name] = readOption(input);
      try {
        await enter(await api.createMatch(game.name, options, mode.seats()));
      } catch (e) {
        err.textContent = e.message;
      }
    },
  },
  h("h2", {}, game.name),
  game.doc ? h("p.muted", {}, game.doc) : null,
  game.rules ? h("details.rules", {}, h("summary", {}, "Rules"), h("pre", {}, game.rules)) : null,
  opts.length ? h("fieldset.options", {}, h("legend", {}, "Options"), opts) : null,
  mode,
  h("button.primary", { type: "submit", id: "create" }, "Start match"),
  err);
  return form;
}

function importPanel() {
  const file = h("input", { type: "file", id: "import-file", accept: ".json,.txt,application/json,text/plain" });
  const text = h("textarea", { id: "import-text", rows: "3", placeholder: "a text record ([game option=value] 1. move 2. move,move *) or a JSON record" });
  const mode = modeFieldset("imp");
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

function matchList(title, which) {
  const list = h("ul.matches", { id: `list-${which}` }, h("li.muted", {}, "loading…"));
  const load = () => api.listMatches(which).then((rows) => {
    list.replaceChildren(...(rows.length ? rows.map((m) => {
      const opts = Object.entries(m.options || {}).map(([k, v]) => `${k}=${v}`).join(" ");
      const mine = api.mySeat(m.id);
      const verb = mine ? "Resume" : which === "open" ? "Join" : "Watch";
      return h("li", {},
        h("a", { href: `#/match/${encodeURIComponent(m.id)}` }, `${verb}: ${m.game}`),
        h("span.muted", {}, ` ${opts} · ply ${m.ply} · ${m.status || ""}`));
    }) : [h("li.muted", {}, "none")]));
  }).catch((e) => list.replaceChildren(h("li.error", {}, e.message)));
  load();
  const card = h("section.card", {}, h("h2", {}, title), list);
  card.refresh = load;
  return card;
}

export function showLobby(root) {
  const tabs = h("div.gametabs", { role: "tablist", "aria-label": "Games" });
  const panel = h("section.card.gamepanel");
  const lists = [matchList("Open matches", "open"), matchList("Recent matches", "recent")];
  const timer = setInterval(() => lists.forEach((l) => l.refresh()), 5000);
  const page = h("div.lobby", {},
    h("div.lobby-main", {}, tabs, panel),
    h("div.lobby-side", {}, ...lists,
      h("section.card", {}, importPanel())));
  root.append(page);
  api.games().then((games) => {
    const select = (g) => {
      for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.game === g.name));
      panel.replaceChildren(gamePanel(g));
    };
    tabs.append(...games.map((g) => h("button.tab", { type: "button", role: "tab", dataset: { game: g.name }, onclick: () => select(g) }, g.name)));
    if (games.length) select(games[0]);
  }).catch((e) => panel.replaceChildren(h("p.error", {}, `games: ${e.message}`)));
  return () => clearInterval(timer);
}

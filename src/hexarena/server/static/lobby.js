// The lobby: the games with their options and rules, the new-match form, import, open and recent matches.
import * as api from "./api.js";
import { h, playerLink } from "./dom.js";
import { onAccount } from "./account.js";
import { fitCells, gamePicture } from "./learn.js";

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

// A time control as the lobby writes it: "3 days a move", "5 min + 3 s", "no time limit".
function controlText(c) {
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
function opponentFields(prefix) {
  const who = h("select", { id: `${prefix}-opponent` },
    h("option", { value: "anyone" }, "Anyone (an open seek)"), h("option", { value: "player" }, "A player by name"),
    h("option", { value: "ai" }, "The AI (levels 1–10)"));
  const to = h("input", { id: `${prefix}-to`, maxLength: 20, autocomplete: "off" });
  const level = h("input", { id: `${prefix}-ai-level`, type: "number", min: "1", max: "10", value: "3" });
  const toField = h("div.field", {}, h("label", { for: `${prefix}-to` }, "Player's name"), to);
  const levelField = h("div.field", {}, h("label", { for: `${prefix}-ai-level` }, "AI level (1–10)"), level);
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

// The seek's own fields: time limit, rated or casual, my colour, and the opponent.
function seekFields(prefix) {
  const kind = h("select", { id: `${prefix}-clock`, name: "clock" },
    h("option", { value: "days" }, "Correspondence (days a move)"),
    h("option", { value: "live" }, "Real time (minutes + seconds a turn)"),
    h("option", { value: "none" }, "No time limit"));
  const days = h("input", { id: `${prefix}-days`, type: "number", min: "1", max: "14", value: "3" });
  const minutes = h("input", { id: `${prefix}-minutes`, type: "number", min: "0.25", max: "180", step: "0.25", value: "5" });
  const increment = h("input", { id: `${prefix}-increment`, type: "number", min: "0", max: "180", value: "3" });
  const rated = h("input", { id: `${prefix}-rated`, type: "checkbox" });
  const colour = h("select", { id: `${prefix}-colour` },
    h("option", { value: "random" }, "Random"), h("option", { value: "first" }, "I play first"), h("option", { value: "second" }, "I play second"));
  const opponent = opponentFields(prefix);
  const daysField = h("div.field", {}, h("label", { for: `${prefix}-days` }, "Days a move (1–14)"), days);
  const liveField = h("div.row", {},
    h("div.field", {}, h("label", { for: `${prefix}-minutes` }, "Minutes"), minutes),
    h("div.field", {}, h("label", { for: `${prefix}-increment` }, "Seconds added a turn"), increment));
  const update = () => {
    daysField.hidden = kind.value !== "days";
    liveField.hidden = kind.value !== "live";
  };
  kind.addEventListener("change", update);
  update();
  const box = h("div.seek-fields", {}, opponent,
    h("div.field", {}, h("label", { for: `${prefix}-clock` }, "Time limit"), kind), daysField, liveField,
    h("div.field", {}, h("label", { for: `${prefix}-colour` }, "My colour"), colour),
    h("label.radio", { for: `${prefix}-rated` }, rated, " Rated"), explained());
  box.seek = () => ({
    clock: kind.value === "days" ? { days: Number(days.value) }
      : kind.value === "live" ? { initial: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) } : null,
    rated: rated.checked,
    colour: colour.value,
    to: opponent.to(),
  });
  return box;
}

function modeFieldset(prefix, seeking = false) {
  const radios = [["ai", "Against the AI"], ["hotseat", "Hot-seat (both sides here)"], ["online", "Online (share a link)"]];
  if (seeking) radios.push(["seek", "Seek a player (lobby or challenge)"]);
  const level = h("input", { type: "number", min: "1", max: "10", value: "3", id: `${prefix}-level`, name: "level" });
  const seat = h("select", { id: `${prefix}-seat`, name: "seat" },
    h("option", { value: "first" }, "I play first"), h("option", { value: "second" }, "I play second"));
  const fs = h("fieldset.mode", {},
    h("legend", {}, "Mode"),
    radios.map(([v, text], i) => h("label.radio", {},
      h("input", { type: "radio", name: `${prefix}-mode`, value: v, checked: i === 0 }), " ", text)),
    h("div.row", {},
      h("div.field.level", {}, h("label", { for: `${prefix}-level` }, "AI level (1–10)"), level),
      h("div.field.myseat", {}, h("label", { for: `${prefix}-seat` }, "My seat"), seat)));
  const seek = seeking ? seekFields(prefix) : null;
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
    const lv = Math.max(1, Math.min(10, Number(level.value) || 1));
    return seatsFor(mode, lv, seat.value === "first");
  };
  return fs;
}

const matchHref = (id) => `#/match/${encodeURIComponent(id)}`;

async function enter(res) {
  api.keepSeat(res.id, res.token, res.seats);
  location.hash = matchHref(res.id);
}

// A game's picture, its character in a line, and whether it is the suggested first game (from /api/learn).
function gameIntro(intro) {
  return h("div.game-intro", {}, gamePicture(intro.svg),
    h("p", {}, intro.first ? h("span.first-badge", {}, "start here") : null, " ", intro.tagline));
}

function gamePanel(game, signedIn, onSeek, intro) {
  const opts = Object.entries(game.options || {}).map(([k, o]) => optionInput(k, o));
  const mode = modeFieldset("new", signedIn);
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
        h("a", { href: matchHref(m.id) }, `${verb}: ${m.game}`),
        h("span.muted", {}, ` ${opts} · ply ${m.ply} · ${m.status || ""}`));
    }) : [h("li.muted", {}, "none")]));
  }).catch((e) => list.replaceChildren(h("li.error", {}, e.message)));
  load();
  const card = h("section.card", {}, h("h2", {}, title), list);
  card.refresh = load;
  return card;
}

// Seeks and challenges: others' open seeks to accept, mine to withdraw, challenges to accept or decline.
function seekButtons(s, who, act) {
  const button = (cls, text, fn) => h("button", { type: "button", class: cls, onclick: () => act(fn) }, text);
  if (!who) return [];
  if (s.by === who.name) return [button("withdraw", s.to ? "Cancel" : "Withdraw", () => api.dropSeek(s.id))];
  const accept = button("primary accept", "Accept", () => api.acceptSeek(s.id));
  return s.to === who.name ? [accept, button("decline", "Decline", () => api.dropSeek(s.id))] : [accept];
}

// the seeker: name, rating in the seek's game ("new" for none), and whether they are established in it
function seeker(s) {
  const rating = s.rating == null ? "new" : String(s.rating);
  return h("td", {}, playerLink(s.by), s.to ? h("span.muted", {}, " → ", s.to) : null,
    h("div.small", {}, h("span.muted.seek-rating", {}, rating),
      s.established ? h("span.established", { title: "an established rating in this game: listed first" }, "established") : null));
}

function seekRow(s, who, act) {
  const opts = Object.entries(s.options || {}).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : v}`).join(" ");
  const sides = s.colour === "random" ? "random colours" : `${s.by} plays ${s.colour}`;
  return h("tr", { dataset: { seek: s.id } }, seeker(s),
    h("td", {}, s.game, h("div.muted.small", {}, opts)),
    h("td", {}, controlText(s.clock), h("div.muted.small", {}, `${s.rated ? "rated" : "casual"} · ${sides}`)),
    h("td", {}, seekButtons(s, who, act)));
}

// The lobby's filter (docs/server.md "Seeks and challenges"): a game, a range of the seekers' ratings; the query.
function seekFilter(onChange) {
  const game = h("select", { id: "seek-game", "aria-label": "Game of the seeks shown", onchange: onChange },
    h("option", { value: "" }, "All games"));
  const bound = (id, label, placeholder) => h("input", { id, type: "number", min: "0", max: "9999", step: "50",
    placeholder, "aria-label": label, onchange: onChange });
  const low = bound("seek-rating-min", "Lowest seeker rating", "from");
  const high = bound("seek-rating-max", "Highest seeker rating", "to");
  const form = h("div.seek-filter", {}, game, h("span.seek-range", {}, "rating ", low, " – ", high));
  form.setGames = (names) => game.append(...names.map((n) => h("option", { value: n }, n)));
  form.query = () => {
    const q = new URLSearchParams();
    if (game.value) q.set("game", game.value);
    if (low.value || high.value) q.set("rating", `${low.value || 0}-${high.value || 9999}`);
    const text = q.toString();
    return text ? `?${text}` : "";
  };
  return form;
}

function seekList() {
  const body = h("div", { id: "seeks" }, h("p.muted", {}, "loading…"));
  const filter = seekFilter(() => load());
  const card = h("section.card.seeks", {}, h("h2", {}, "Seeks and challenges"), filter, body);
  let who = null;
  const err = h("p.error", { role: "alert" });
  const act = async (fn) => {
    err.textContent = "";
    try {
      const r = await fn();
      if (r && r.match) location.hash = matchHref(r.match);
      else load();
    } catch (e) {
      err.textContent = e.message;
      load();
    }
  };
  const load = () => {
    if (!who) {
      body.replaceChildren(h("p.muted", {}, h("a", { href: "#/login" }, "Sign in"), " to post a seek, accept one or challenge a player."));
    }
    return api.seeks(filter.query()).then((list) => {
      const rows = list.map((s) => seekRow(s, who, act));
      const none = filter.query() ? "No seek matches this filter." : "No seek is open: post one from a game's panel.";
      body.replaceChildren(rows.length ? h("table", {}, h("tbody", {}, rows)) : h("p.muted", {}, none), err);
    }).catch((e) => { if (who) body.replaceChildren(h("p.error", {}, e.message), err); });
  };
  card.refresh = load;
  card.setGames = filter.setGames;
  card.setAccount = (a) => {
    who = a;
    load();
  };
  return card;
}

export function showLobby(root) {
  const tabs = h("div.gametabs", { role: "tablist", "aria-label": "Games" });
  const panel = h("section.card.gamepanel");
  const seeks = seekList();
  const lists = [matchList("Open matches", "open"), matchList("Recent matches", "recent")];
  const timer = setInterval(() => [...lists, seeks].forEach((l) => l.refresh()), 5000);
  const page = h("div.lobby", {},
    h("div.lobby-main", {}, tabs, panel),
    h("div.lobby-side", {}, seeks, ...lists,
      h("section.card", {}, importPanel())));
  root.append(page);
  let signedIn = false;
  let shown = null;
  const intros = api.api("GET", "/api/learn").catch(() => []);
  Promise.all([api.games(), intros]).then(([games, learned]) => {
    const intro = Object.fromEntries(learned.map((l) => [l.name, l]));
    const select = (g) => {
      shown = g;
      for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.game === g.name));
      panel.replaceChildren(gamePanel(g, signedIn, () => seeks.refresh(), intro[g.name]));
      panel.querySelectorAll(".card-picture svg").forEach(fitCells);
    };
    const tab = (g) => h("button.tab", { type: "button", role: "tab", dataset: { game: g.name }, onclick: () => select(g) },
      g.name, intro[g.name] && intro[g.name].first ? h("span.tab-first", {}, " start here") : null);
    tabs.append(...games.map(tab));
    seeks.setGames(games.map((g) => g.name));
    if (games.length) select(games[0]);
    off = onAccount((a, msg) => {
      seeks.setAccount(a);
      if (signedIn !== !!a) {
        signedIn = !!a;
        if (shown) select(shown);
      } else if (msg) seeks.refresh();
    });
  }).catch((e) => panel.replaceChildren(h("p.error", {}, `games: ${e.message}`)));
  let off = () => {};
  return () => {
    clearInterval(timer);
    off();
  };
}

// A tiny element builder: h("button.primary", {onclick}, "text", child, ...); svg(...) the same for SVG elements.

export const h = (spec, attrs = {}, ...children) => build(document.createElement.bind(document), spec, attrs, children);
export const svg = (spec, attrs = {}, ...children) => build((tag) => document.createElementNS("http://www.w3.org/2000/svg", tag),
  spec, Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, typeof v === "number" ? String(v) : v])), children);

function build(create, spec, attrs, children) {
  const [tag, ...classes] = spec.split(".");
  const el = create(tag || "div");
  if (classes.length) el.setAttribute("class", classes.join(" "));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// A game's options as the lists write them: "size=3 opening=none" (a list's items joined by commas).
export const optionsText = (options) => Object.entries(options || {})
  .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : v}`).join(" ");

// A seat's name: the game's player name where known ("black"), else first / second player.
export function seatName(p, players) {
  const order = p === 0 ? "first" : "second";
  const name = players && players[p];
  if (!name) return `${order} player`;
  return name.toLowerCase().includes(order) ? name : `${name} (${order})`;
}

export const aiName = (level) => `AI level ${level}`;

// A player's name linked to their profile, shown as `label` (an AI level's: aiName); a guest or a deleted account
// as plain text.
export function playerLink(name, label = name) {
  if (name === null || name === undefined) return h("span.player", {}, "guest");
  if (name === "(deleted)") return h("span.player", {}, name);
  return h("a.player", { href: `#/@/${encodeURIComponent(name)}` }, label);
}

// The player of a seat from its seat_info ({kind, level, name}) or a match summary's: linked as playerLink.
export const seatLink = (info) => playerLink(info.name, info.kind === "ai" ? aiName(info.level) : info.name);

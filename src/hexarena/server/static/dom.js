// A tiny element builder: h("button.primary", {onclick}, "text", child, ...).

export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
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

// A seat's name: the game's player name where known ("black"), else first / second player.
export function seatName(p, players) {
  const order = p === 0 ? "first" : "second";
  const name = players && players[p];
  if (!name) return `${order} player`;
  return name.toLowerCase().includes(order) ? name : `${name} (${order})`;
}

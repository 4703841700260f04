// The seeks and challenges card: the filter, the list, and what I can do with each seek.
import * as api from "../api.js";
import { h, optionsText, playerLink } from "../dom.js";
import { matchHref } from "./panels.js";
import { controlText } from "./seek_fields.js";

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
  const opts = optionsText(s.options);
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

export function seekList() {
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

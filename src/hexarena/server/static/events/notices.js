// A new round's game of mine, told at once: the account's feed lists my running events' games going on ("events":
// [{id, name, round, match}]); a game new to it shows a banner under the header ("Round R of EVENT: your game
// against X", a link to the match, until the game ends) and, where the player allowed it (asked only on a click), a
// browser notification.
import { getMatch } from "../api.js";
import { notifying, onAccount, setNotifying } from "../account.js";
import { aiName, h } from "../dom.js";
import { matchHref } from "../lobby/panels.js";

const who = (info) => (info.kind === "ai" ? aiName(info.level) : info.name || "a guest");

// the opponent's name in the match of an event's entry `ev`, for `me` (the signed-in account's name)
async function opponent(ev, me) {
  const m = await getMatch(ev.match);
  const other = m.seat_info.find((s) => s.name !== me) || m.seat_info[1];
  return who(other);
}

// "Tell me by a browser notification": asks the browser for leave on the click, never before
function askButton(holder) {
  if (!("Notification" in window) || notifying()) return null;
  return h("p.notice-ask", { id: "notice-ask" }, h("button.linklike", { type: "button", onclick: async () => {
    await setNotifying(true);
    holder.querySelector("#notice-ask")?.remove();
  } }, "Tell me by a browser notification too"));
}

function showNotice(holder, ev, against) {
  const text = `Round ${ev.round} of ${ev.name}: your game against ${against}`;
  const item = h("div.notice", { dataset: { match: ev.match } },
    h("a", { href: matchHref(ev.match), onclick: () => item.remove() }, text),
    h("button.linklike.dismiss", { type: "button", "aria-label": `Dismiss: ${text}`, onclick: () => item.remove() }, "Dismiss"));
  const asking = holder.querySelector("#notice-ask");
  if (asking) asking.before(item);
  else holder.append(item, askButton(holder) || "");
  if (notifying() && document.visibilityState !== "visible") {
    new Notification("hexarena: a new round", { body: text, tag: `round-${ev.match}` });
  }
}

// Watch the account's feed for new games of my events; the notices go into `holder`.
export function watchEventNotices(holder) {
  let known = null; // the match ids of the feed's last "events" (null: no message of this account yet)
  let name = null;
  onAccount((a, msg) => {
    if (!a || (name && a.name !== name)) known = null;
    name = a ? a.name : null;
    if (!a) holder.replaceChildren();
    if (!a || !msg || !Array.isArray(msg.events)) return;
    const fresh = known ? msg.events.filter((ev) => !known.has(ev.match)) : [];
    known = new Set(msg.events.map((ev) => ev.match));
    holder.querySelectorAll(".notice").forEach((n) => { if (!known.has(n.dataset.match)) n.remove(); }); // games over
    if (!holder.querySelector(".notice")) holder.querySelector("#notice-ask")?.remove();
    for (const ev of fresh) opponent(ev, a.name).then((x) => showNotice(holder, ev, x), () => showNotice(holder, ev, "your opponent"));
  });
}

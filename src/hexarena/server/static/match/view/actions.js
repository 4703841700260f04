// The player's buttons: join an open seat (or the note that I watch), the share link, undo, hint, resign, review,
// try a line, the page's settings, and the record's downloads.
import * as api from "../../api.js";
import { builderSetting } from "../../builder.js";
import { h, seatName } from "../../dom.js";
import { soundSetting } from "../../sound.js";

// A Copy button for a read-only field and its note: the clipboard, else the field's text selected for the keys.
function copyButton(field) {
  const note = h("span.copied.small", { id: "copied", role: "status" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      note.textContent = "Copied";
    } catch {
      field.focus(); // (which selects it)
      note.textContent = "Selected: press Ctrl+C to copy";
    }
  };
  return [h("button", { id: "copy-share", type: "button", onclick: copy }, "Copy"), note];
}

function share(id) {
  const field = h("input", { id: "share", type: "text", readOnly: true, value: api.shareLink(id), onfocus: (e) => e.target.select() });
  return h("div.share", {}, h("label", { for: "share" }, "Share this link with your opponent:"), field, ...copyButton(field));
}

// Join (an open seat, mine none), I am watching (no seat mine), the share link (an open seat, one mine)
export function seating(ctrl, m) {
  const open = m.seat_info.findIndex((s) => s.kind === "open"), mine = ctrl.mine().length > 0;
  if (open >= 0 && !mine) {
    return h("button.primary", { id: "join", type: "button", onclick: () => ctrl.join() }, `Join as ${seatName(open, ctrl.players)}`);
  }
  if (!mine) return h("p.muted", { id: "watching" }, "You are watching this match live.");
  return open >= 0 ? share(ctrl.id) : null;
}

export function actions(ctrl, m) {
  const me = ctrl.mine(), replay = ctrl.view !== null;
  const hasAI = m.seat_info.some((s) => s.kind === "ai");
  const canUndo = me.length > 0 && (hasAI || me.length === 2) && m.ply > 0 && !m.thinking;
  const button = (id, text, onclick, cls = "") => h(`button${cls}`, { id, type: "button", onclick }, text);
  return h("div.actions", {},
    canUndo ? button("undo", "Undo", () => ctrl.undo()) : null,
    ctrl.myTurn() && !replay && !m.help_closed ? button("hint-btn", "Hint", () => ctrl.askHint()) : null,
    me.length && !m.over ? button("resign", "Resign", () => ctrl.resign(), ".danger") : null,
    m.over && !ctrl.review ? button("review-btn", "Review with the AI", () => ctrl.startReview()) : null,
    m.over && replay && !ctrl.scratch ? button("try-line", "Try a line", () => ctrl.tryLine()) : null);
}

export function settings(ctrl, m) {
  return h("div.settings", {}, builderSetting(m, ctrl.mine(), () => {
    ctrl.line = null;
    ctrl.ui.redraw();
  }), soundSetting());
}

export function records(id) {
  return h("div.records", {}, "Record: ",
    h("a", { id: "dl-json", href: api.recordUrl(id, "json"), download: `hexarena-${id}.json` }, "JSON"), " · ",
    h("a", { id: "dl-txt", href: api.recordUrl(id, "txt"), download: `hexarena-${id}.txt` }, "text"), " · ",
    h("a", { href: "#/" }, "Lobby"));
}

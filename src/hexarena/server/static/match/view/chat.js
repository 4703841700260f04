// The chat: the players' lines (hidden or shown, kept in localStorage), and a form for the players to write.
import { h } from "../../dom.js";

function chatForm(ctrl) {
  if (!ctrl.mine().length) return h("p.muted.small", {}, "Only the players write here.");
  const input = h("input", { id: "chat-text", maxLength: 500, placeholder: "say something to your opponent",
    "aria-label": "chat message", autocomplete: "off" });
  return h("form", { onsubmit: (ev) => {
    ev.preventDefault();
    ctrl.chat(input);
  } }, input, h("button", { type: "submit", id: "chat-send" }, "Send"));
}

export function chatPanel(ctrl, m) {
  const toggle = h("button.linklike.small", { type: "button", id: "chat-toggle", "aria-expanded": String(!ctrl.chatHidden),
    onclick: () => ctrl.toggleChat() }, ctrl.chatHidden ? "Show" : "Hide");
  const head = h("h3", {}, "Chat ", toggle);
  if (ctrl.chatHidden) return h("section.chat", { id: "chat" }, head);
  const lines = (m.chat || []).map((l) => h("li", {}, h("span.chat-from", {}, `${l.from}:`), l.text));
  return h("section.chat", { id: "chat" }, head, h("ul.chat-lines", { id: "chat-lines", "aria-live": "polite" }, lines),
    chatForm(ctrl));
}

// The side panel, drawn whole on every change: the head, seating, the builder panel, actions and settings, the
// review's progress, the moves, the chat and the record; the focus, a chat draft and the scroll kept.
import { h } from "../../dom.js";
import { reviewProgress } from "../../review.js";
import { actions, records, seating, settings } from "./actions.js";
import { builderParts } from "./builder.js";
import { chatPanel } from "./chat.js";
import { history } from "./moves.js";
import { head } from "./seats.js";

function parts(ctrl, m, v) {
  const review = ctrl.review;
  return [...head(ctrl, m, v), seating(ctrl, m), ...builderParts(ctrl, m, v), actions(ctrl, m), settings(ctrl, m),
    h("p.error", { role: "alert" }), review && review.status !== "done" ? reviewProgress(review) : null,
    history(ctrl, m), chatPanel(ctrl, m), records(ctrl.id)];
}

// Draw the panel of match `m`, its board showing view `v`.
export function drawPanel(ctrl, panel, m, v) {
  const focused = document.activeElement && document.activeElement.id;
  const draft = panel.querySelector("#chat-text")?.value;
  panel.replaceChildren(...parts(ctrl, m, v).filter(Boolean));
  if (draft) panel.querySelector("#chat-text").value = draft;
  if (focused) document.getElementById(focused)?.focus();
  const chatLines = panel.querySelector("#chat-lines");
  if (chatLines) chatLines.scrollTop = chatLines.scrollHeight;
  panel.querySelector('.mv[aria-current="step"]')?.scrollIntoView({ block: "nearest" });
}

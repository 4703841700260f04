// The hover preview: the position after a move hovered, focused or tapped once, drawn small in the corner of the
// board away from the move, under the board's title (on a phone: under the board, app.css).
import { titleOf } from "./board.js";
import { h } from "./dom.js";

const WAIT = 150; // ms a move is hovered before its preview is asked

// wrap: the board's frame (positioned); fetch(move): a promise of the preview object after move.
export function makePeek(wrap, fetch) {
  const box = h("div.peek", { id: "peek", hidden: true, "aria-hidden": "true" });
  wrap.append(box);
  let want = null;
  let timer = null;

  function hide() {
    want = null;
    clearTimeout(timer);
    box.hidden = true;
  }

  function show(pos, move, el) {
    const frame = wrap.getBoundingClientRect();
    const at = el.getBoundingClientRect();
    box.classList.toggle("left", at.left + at.width / 2 > frame.left + frame.width / 2);
    const board = wrap.querySelector(".board");
    const title = titleOf(board && board.querySelector("svg"));
    const under = Math.max(board ? board.getBoundingClientRect().top : frame.top, title ? title.getBoundingClientRect().bottom : 0);
    box.style.top = `${Math.max(6, under - frame.top + 6)}px`;
    const art = h("div.peek-board");
    art.innerHTML = pos.svg;
    art.querySelector("svg")?.removeAttribute("width");
    art.querySelector("svg")?.removeAttribute("height");
    box.replaceChildren(h("strong.peek-caption", {}, `After ${move}`), art);
    box.dataset.move = move;
    box.hidden = false;
  }

  // move: the move hovered, or null when left
  function hover(move, el) {
    if (!move) return hide();
    clearTimeout(timer);
    want = move;
    timer = setTimeout(async () => {
      try {
        const pos = await fetch(move);
        if (want === move) show(pos, move, el);
      } catch (e) {
        if (want === move) hide();
      }
    }, WAIT);
  }

  return { hover, hide };
}

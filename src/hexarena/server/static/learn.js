// Learning to play: #/learn lists the games (picture, character, the suggested first one); #/learn/GAME is a
// game's how-to-play page: its rules, lessons answered on the board (judged by the server) and sample games.
import { api } from "./api.js";
import { renderBoard, closeChooser } from "./board.js";
import { h } from "./dom.js";

const enc = encodeURIComponent;
const failed = (root, e) => root.replaceChildren(h("section.card", {}, h("p.error", {}, e.message), h("a", { href: "#/learn" }, "All games")));

export function showLearnIndex(root) {
  api("GET", "/api/learn").then((games) => {
    root.replaceChildren(h("section.learn-index", {},
      h("h2", {}, "Learn to play"),
      h("ul.game-cards", {}, games.map(gameCard))));
    root.querySelectorAll(".card-picture svg").forEach(fitCells);
  }).catch((e) => failed(root, e));
}

// A picture cropped to its cells (without its status line and legend), so that small boards fill their card.
export function fitCells(svg) {
  const boxes = [...svg.querySelectorAll("polygon[data-cell]")].map((p) => p.getBBox());
  if (!boxes.length) return;
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  const w = Math.max(...boxes.map((b) => b.x + b.width)) - x, hgt = Math.max(...boxes.map((b) => b.y + b.height)) - y;
  svg.setAttribute("viewBox", `${x - 2} ${y - 2} ${w + 4} ${hgt + 4}`);
}

// A game's board picture (decorative: its name and character are said beside it); fitCells once in the page.
export function gamePicture(svg) {
  const picture = h("div.card-picture", { "aria-hidden": "true" });
  picture.innerHTML = svg;
  return picture;
}

function gameCard(g) {
  const picture = gamePicture(g.svg);
  return h(`li.game-card${g.first ? ".first" : ""}`, { dataset: { game: g.name } },
    h("a", { href: `#/learn/${enc(g.name)}` }, picture, h("strong", {}, g.name)),
    g.first ? h("span.first-badge", {}, "start here") : null,
    h("p.small", {}, g.tagline));
}

export function showLearn(root, game) {
  let stop = () => {};
  api("GET", `/api/learn/${enc(game)}`).then((page) => {
    const lessons = lessonView(game, page.lessons);
    const samples = sampleView(game, page.samples);
    root.replaceChildren(h("div.learn", {},
      h("section.card.how", {},
        h("h2", {}, `How to play ${page.name}`),
        h("p.muted", {}, page.tagline),
        page.how_to_play.map((text) => h("p", {}, text)),
        h("p", {}, h("a", { href: "#/" }, "Play it from the lobby"), " · ", h("a", { href: "#/learn" }, "All games"))),
      lessons, samples));
    stop = samples.stop;
  }).catch((e) => failed(root, e));
  return () => {
    stop();
    closeChooser();
  };
}

// The lessons, one at a time: the position, the question, answers by clicks (or yes / no), the verdict.
function lessonView(game, lessons) {
  const box = h("section.card.lessons", { id: "lessons" });
  const board = h("div.board.lesson-board", { id: "board" }); // one board for every lesson: its zoom kept
  const frame = h("div.board-wrap", {}, board);
  let at = 0;
  let tries = [];
  const show = (i) => {
    at = i;
    tries = [];
    draw(lessons[at], null);
  };
  let busy = false;
  const answer = async (move) => {
    if (busy) return;
    busy = true;
    const lesson = lessons[at];
    const moves = [...tries, move];
    try {
      const r = await api("POST", `/api/learn/${enc(game)}/lessons/${enc(lesson.id)}`, { moves });
      tries = r.correct === null ? moves : [];
      draw({ ...lesson, ...r }, r);
    } catch (e) {
      draw(lesson, { correct: false, explanation: e.message });
    } finally {
      busy = false;
    }
  };
  const draw = (shown, verdict) => {
    const lesson = lessons[at];
    const open = !verdict || verdict.correct === null;
    board.dataset.lesson = lesson.id;
    board.classList.remove("active");
    const words = !open ? [] : lesson.kind === "yesno" ? [["yes", "Yes"], ["no", "No"]]
      : (shown.targets || []).filter((t) => t.cell === null || t.cell === undefined).map((t) => [t.move, (shown.labels || {})[t.move] || t.move]);
    const hint = h("button.linklike.small", { type: "button", id: "show-moves", onclick: () => board.classList.toggle("active") }, "show the legal moves");
    box.replaceChildren(...[
      h("h2", {}, `Lesson ${at + 1} of ${lessons.length}: ${lesson.title}`),
      h("p", {}, lesson.text),
      h("p.question", {}, lesson.question),
      frame,
      words.length ? h("div.words", {}, words.map(([move, label]) => h("button", { type: "button", dataset: { move }, onclick: () => answer(move) }, label))) : null,
      open && lesson.kind === "moves" ? hint : null,
      verdict ? h(`p.verdict${verdict.correct === true ? ".right" : verdict.correct === false ? ".wrong" : ""}`, { id: "verdict", role: "status" },
        verdict.correct === true ? "Correct. " : verdict.correct === false ? "Not quite. " : "", verdict.explanation) : null,
      h("div.replaynav", {},
        h("button", { type: "button", id: "lesson-prev", disabled: at === 0, onclick: () => show(at - 1) }, "◀ Previous"),
        verdict && !open ? h("button", { type: "button", id: "lesson-again", onclick: () => show(at) }, "Try again") : null,
        h("button.primary", { type: "button", id: "lesson-next", disabled: at === lessons.length - 1, onclick: () => show(at + 1) }, "Next ▶")),
    ].filter(Boolean));
    renderBoard(board, shown.svg, { targets: open && lesson.kind === "moves" ? shown.targets || [] : [], pictures: shown.pictures || [], onPick: open ? answer : null });
  };
  if (lessons.length) show(0);
  return box;
}

// The sources' sample games: a board stepped by buttons or the arrow keys.
function sampleView(game, samples) {
  const box = h("section.card.samples", { id: "samples" }, h("h2", {}, "Sample games"));
  if (!samples.length) {
    box.append(h("p.muted", {}, "The source gives no sample game in notation: its examples are the lessons above."));
    box.stop = () => {};
    return box;
  }
  const board = h("div.board", { id: "sample-board" });
  const caption = h("p.status", { id: "sample-status", role: "status" });
  const head = h("div.sample-head");
  const tabs = h("div.gametabs", { role: "tablist" }, samples.map((s, i) => h("button.tab", { type: "button", role: "tab", onclick: () => pick(i) }, s.title)));
  let which = 0;
  let ply = 0;
  let want = 0;
  const step = async (k) => {
    const moves = samples[which].moves;
    want = Math.max(0, Math.min(k, moves.length));
    const asked = want;
    let r;
    try {
      r = await api("GET", `/api/learn/${enc(game)}/samples/${which}?ply=${asked}`);
    } catch (e) {
      caption.textContent = e.message;
      return;
    }
    if (asked !== want) return;
    ply = asked;
    renderBoard(board, r.svg);
    board.dataset.ply = String(ply);
    caption.textContent = `${ply ? `After move ${ply} of ${moves.length} (${moves[ply - 1]})` : "Start"}: ${r.status}`;
  };
  const pick = (i) => {
    which = i;
    [...tabs.children].forEach((b, j) => b.setAttribute("aria-selected", String(j === i)));
    head.replaceChildren(h("p.small.muted", {}, `From ${samples[i].source}.`), h("code.record", {}, samples[i].record));
    step(0);
  };
  const onKey = (ev) => {
    if (ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft") step(want - 1);
    else if (ev.key === "ArrowRight") step(want + 1);
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  box.append(tabs, head, h("div.board-wrap", {}, board), caption,
    h("div.replaynav", {},
      h("button", { type: "button", id: "sample-first", "aria-label": "first position", onclick: () => step(0) }, "«"),
      h("button", { type: "button", id: "sample-prev", "aria-label": "previous move", onclick: () => step(want - 1) }, "◀"),
      h("button", { type: "button", id: "sample-next", "aria-label": "next move", onclick: () => step(want + 1) }, "▶"),
      h("button", { type: "button", id: "sample-last", "aria-label": "last position", onclick: () => step(samples[which].moves.length) }, "»")),
    h("p.muted.small", {}, "← → keys step through the moves"));
  pick(0);
  box.stop = () => document.removeEventListener("keydown", onKey);
  return box;
}

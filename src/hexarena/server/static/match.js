// A match: the board, the side panel (status, moves, replay, actions), live updates.
import * as api from "./api.js";
import { renderBoard, closeChooser } from "./board.js";
import { builderOn, builderSetting, stagedBox } from "./builder.js";
import { h, playerLink, seatName } from "./dom.js";
import { Line, Previews } from "./line.js";
import { makePeek } from "./peek.js";
import { sound, soundSetting } from "./sound.js";
import { said, thinkingLine, tick } from "./thinking.js";
import { flaggedMoves, pollReview, rateGraph, reviewProgress, scratchPanel } from "./review.js";
import { me } from "./account.js";
import { timeLeft } from "./people.js";
import { ratingChange } from "./ratings.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const CHAT_HIDDEN = "hexarena.chat.hidden";
// m:ss (h:mm:ss from an hour), tenths under 10 s
function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return ` ${s.toFixed(1)} s`;
  const whole = Math.ceil(s), hr = Math.floor(whole / 3600), min = Math.floor((whole % 3600) / 60), sec = whole % 60;
  const pad = (x) => String(x).padStart(2, "0");
  return hr ? ` ${hr}:${pad(min)}:${pad(sec)}` : ` ${min}:${pad(sec)}`;
}
const time = (m) => Date.parse(m.updated || "") || 0;

// Where ply v falls in the turns of the move list: {turn, step, steps} (steps: the turn's steps so far).
function turnAt(turns, v) {
  let start = 0;
  for (const [turn, written] of turns) {
    const end = written[written.length - 1][1];
    if (v <= end) return { turn, step: v - start, steps: end - start };
    start = end;
  }
  return null;
}

// The position after ply v in words: "After turn 3 of 12" (or a step inside a turn).
function plyText(turns, v) {
  const at = v ? turnAt(turns, v) : null;
  if (!at) return "the start";
  const last = turns[turns.length - 1][0];
  return at.step === at.steps ? `after turn ${at.turn} of ${last}` : `turn ${at.turn} of ${last}, after step ${at.step}`;
}

const hintText = (hint) => {
  const rate = typeof hint.rate === "number" ? ` (rate ${hint.rate <= 1 ? Math.round(hint.rate * 100) + "%" : hint.rate})` : "";
  return h("p.hint", { id: "hint" }, `Hint: ${hint.move}${hint.proof ? ` (${hint.proof})` : rate}`);
};
const cellOf = (hint, pos) => (hint ? (pos.targets || []).find((t) => t.move === hint.move)?.cell ?? null : null);

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

export function showMatch(root, id) {
  const st = { match: null, seat: api.mySeat(id), account: null, view: null, want: null, players: null, viewSvg: null, viewStatus: "", hint: null, busy: false, connected: false, chatHidden: localStorage.getItem(CHAT_HIDDEN) === "yes", warned: new Set(),
    line: null, scratch: null, scratchHint: null, review: null };
  const board = h("div.board", { id: "board" });
  const panel = h("aside.panel", { id: "panel" });
  const clockAlert = h("p.sr-only", { id: "clock-alert", "aria-live": "assertive" }); // outside the panel: kept across redraws
  const news = h("p.sr-only", { id: "news", "aria-live": "polite" }); // moves said to a screen reader
  const reason = h("p.reason", { id: "reason", "aria-live": "polite" }); // why a click was refused
  const graphBox = h("div.review-graph", { id: "review-graph" });
  const wrap = h("div.board-wrap", {}, board, reason, graphBox);
  const page = h("div.match", {}, wrap, panel, clockAlert, news);
  root.append(page);
  const previews = new Previews(id);
  // the line the board shows: the scratch line, my staged steps, or none (the match's position)
  const base = () => st.scratch || st.line || { ply: st.match.ply, moves: [] };
  const peek = makePeek(wrap, (move) => previews.get(base().ply, [...base().moves, move]));
  const say = (msg) => { reason.textContent = msg || ""; };
  let stopReview = () => {};

  // my seats: the ones this browser's seat token holds, and the ones of my account
  const mine = () => {
    const seats = new Set(st.seat ? st.seat.seats : []);
    const names = (st.match && st.match.players) || [];
    if (st.account) names.forEach((n, p) => { if (n === st.account.name) seats.add(p); });
    return [...seats].sort();
  };
  const token = () => (st.seat ? st.seat.token : null);
  const myTurn = () => st.match && !st.match.over && !st.match.thinking && mine().includes(st.match.to_move);
  const error = (msg) => {
    const el = panel.querySelector(".error");
    if (el) el.textContent = msg || "";
  };

  async function act(fn) {
    if (st.busy) return;
    st.busy = true;
    error("");
    render();
    try {
      const m = await fn();
      if (m && m.id !== undefined) accept(m);
    } catch (e) {
      if (e.status === 409) await api.getMatch(id).then(accept, () => {}); // stale: show the match as it is now
      error(e.message);
    } finally {
      st.busy = false;
      render();
    }
  }

  function accept(m) {
    if (st.match && time(m) && time(m) < time(st.match)) return; // an older answer than a live message
    const before = st.match, waiting = before && !myTurn();
    if (st.match && m.ply !== st.match.ply) {
      news.textContent = `${m.ply > st.match.ply ? `Played ${m.moves[m.moves.length - 1]}` : "Taken back"}. ${m.status || ""}`;
      Object.assign(st, { hint: null, line: null });
      previews.clear();
      say("");
    }
    st.match = m;
    const thinks = said(m);
    if (thinks) news.textContent = `${before && m.ply !== before.ply ? news.textContent : ""} ${thinks}`.trim();
    if (before && m.ply > before.ply) sound("move");
    if (waiting && myTurn()) sound("turn"); // the turn passed to my seat (from the AI's, or an opponent's)
    if (st.view !== null && st.view >= m.ply) st.view = null;
    if (st.view === null) st.want = null;
    render();
  }

  const play = (mv) => act(() => api.move(id, mv, token(), st.match.ply));

  // a step added to a line (staged, or scratch), previewed by the server; its refusal said near the board
  async function extend(line, mv) {
    if (st.busy) return;
    st.busy = true;
    render();
    try {
      await line.add(mv);
      st.scratchHint = null;
      say("");
      news.textContent = `${mv} staged. ${line.pos.status || ""}`;
    } catch (e) {
      say(e.message);
    } finally {
      st.busy = false;
    }
    render();
  }

  // a step taken out of a line (the rest previewed again)
  async function unstage(line, i) {
    try {
      await line.remove(i);
      st.scratchHint = null;
      say("");
    } catch (e) {
      say(e.message);
    }
    render();
  }

  // a click on a cell no move is played by: the server says why, as the cell's move after the line
  async function refuse(cell) {
    const b = base();
    say(await previews.reason(b.ply, [...b.moves, cell]));
  }

  async function tryLine() {
    try {
      const ply = st.view;
      st.scratch = new Line(previews, ply, await previews.get(ply, []));
      say("");
      render();
    } catch (e) {
      error(e.message);
    }
  }

  function review() {
    st.review = { status: "running", progress: 0, plies: [] };
    render();
    stopReview = pollReview(id, (r) => {
      st.review = r;
      render();
    }, (e) => {
      st.review = null;
      render();
      error(e.message);
    });
  }

  async function jump(ply) {
    const m = st.match;
    if (!m) return;
    ply = Math.max(0, Math.min(ply, m.ply));
    st.want = ply;
    st.scratch = null;
    say("");
    if (ply === m.ply) {
      st.view = st.want = null;
      render();
      return;
    }
    try {
      const pos = await api.position(id, ply);
      if (st.want !== ply) return; // a later jump was asked meanwhile
      st.view = ply;
      st.viewSvg = pos.svg;
      st.viewStatus = pos.status;
      render();
    } catch (e) {
      error(e.message);
    }
  }

  function seatLine(m) {
    const me = mine();
    const names = m.players || [];
    return m.seats.map((s, p) => {
      const name = names[p];
      const who = name ? playerLink(name)
        : s === "open" ? "open seat" : me.includes(p) ? "you" : me.length ? "opponent (guest)" : "a guest";
      const rating = m.ratings && m.ratings[p];
      return h("span.seat", { class: `seat seat${p}${m.to_move === p && !m.over ? " to-move" : ""}`, dataset: { seat: String(p) } },
        `${seatName(p, st.players)}: `, who, name && me.includes(p) ? " (you)" : "",
        rating ? h("span.seat-rating", {}, ` ${ratingChange(rating)}`) : null, clockOf(m, p));
    });
  }

  // rated or casual, and a rated match aborted (ended before both sides moved)
  const ratedText = (m) => (!m.rated ? "casual" : m.aborted ? "aborted: not rated"
    : m.uncounted ? "rated, not counted: these two players' rated games today already count" : "rated");
  // fair play: no hints, review or lines tried ahead in a rated or two-person game until it ends (the server's word)
  const ratedLine = (m) => h("p.small.rated", { id: "rated" }, ratedText(m),
    m.help_closed ? h("span.muted", { id: "fair-play" }, ` · no hints or analysis until the end (${m.help_closed})`) : null);

  // says once a turn that the running clock fell under 10 s
  function warnLow(p, left) {
    const key = `${st.match.turn}:${p}`;
    if (left >= 10 || st.warned.has(key)) return;
    st.warned.add(key);
    clockAlert.textContent = `${mine().includes(p) ? "You have" : `${cap(seatName(p, st.players))} has`} ${Math.ceil(Math.max(0, left))} seconds left`;
  }

  // a seat's clock: its remaining time (ticking while it runs), or the deadline of its move
  function clockOf(m, p) {
    const c = m.clock;
    if (!c || m.over) return null;
    const running = c.running === p;
    if (c.remaining && c.remaining[p] !== null && c.remaining[p] !== undefined && !(m.time_control && m.time_control.days)) {
      const left = running && c.deadline ? (Date.parse(c.deadline) - api.serverNow()) / 1000 : c.remaining[p];
      return h("span.clock", { class: `clock${running ? " running" : ""}${left < 10 ? " low" : ""}`, role: "timer", dataset: { seat: String(p) } }, clockText(left));
    }
    return running && c.deadline ? h("span.deadline", { id: "deadline" }, ` · ${timeLeft(c.deadline)}`) : null;
  }

  function resultBanner(m) {
    if (!m.over) return null;
    let text;
    const me = mine();
    if (m.winner === null || m.winner === undefined) text = "Draw";
    else if (me.length === 1) text = me[0] === m.winner ? "You won" : "You lost";
    else text = `${cap(seatName(m.winner, st.players))} won`;
    if (m.resigned !== null && m.resigned !== undefined) text += ` — ${seatName(m.resigned, st.players)} resigned`;
    if (m.timed_out !== null && m.timed_out !== undefined) text += ` — ${seatName(m.timed_out, st.players)} ran out of time`;
    return h("div.banner", { id: "result", role: "status" }, h("strong", {}, text), h("div", {}, m.status || ""));
  }

  // m.turns: [[turn, [[move, ply], ...]], ...], ply being the position after the written move; a review's
  // flagged moves marked, with the AI's best
  function moveList(m) {
    const rows = m.turns || [];
    const current = st.view === null ? m.ply : st.view;
    const flagged = st.review && st.review.status === "done" ? flaggedMoves(rows, st.review.plies) : new Map();
    if (!rows.length) return h("p.muted.small", { id: "moves" }, "No moves yet.");
    return h("ol.movelist", { id: "moves" }, rows.map(([turn, written]) => h("li", { value: String(turn) },
      written.flatMap(([text, ply]) => {
        const f = flagged.get(ply);
        const button = h(`button.mv${f ? ".flagged" : ""}`, {
          type: "button", dataset: { ply: String(ply) }, "aria-current": ply === current ? "step" : null,
          title: f ? `flagged: the AI's best was ${f.best}` : null, onclick: () => jump(ply),
        }, text);
        return f ? [button, h("span.best", {}, `best ${f.best}`)] : button;
      }))));
  }

  // what the board shows and what a click on it does: the scratch line, a replay position, or the match (my
  // staged steps drawn over it while the turn builder is on)
  function boardView(m) {
    if (st.scratch) {
      const pos = st.scratch.pos;
      return { view: "scratch", pos, targets: pos.over ? [] : pos.targets, onPick: (mv) => extend(st.scratch, mv), hint: st.scratchHint };
    }
    if (st.view !== null) return { view: String(st.view), pos: { svg: st.viewSvg }, targets: [] };
    if (!myTurn()) return { view: "live", pos: m, targets: [], hint: st.hint };
    if (!builderOn(m, mine())) return { view: "live", pos: m, targets: m.targets, onPick: play, hint: st.hint };
    st.line ??= new Line(previews, m.ply, m);
    const pos = st.line.pos;
    return { view: "live", pos, targets: pos.turn_done ? [] : pos.targets, onPick: (mv) => extend(st.line, mv), line: st.line,
      hint: st.line.moves.length ? null : st.hint };
  }

  // a staged turn complete: its player's (the position drawn is the next player's)
  const builtText = (m, line) => `${seatName(m.to_move, st.players)} to move: ${line.moves.length} step${line.moves.length === 1 ? "" : "s"} built, Confirm sends the turn`;
  const built = (m, v) => (v.line && v.line.moves.length && v.pos.turn_done && !v.pos.over ? builtText(m, v.line) : null);

  function statusText(m, v) {
    if (v.view === "scratch") return `Scratch line: ${v.pos.status || ""}`;
    if (st.view !== null) return `${cap(plyText(m.turns || [], st.view))}: ${st.viewStatus || ""}`;
    if (built(m, v)) return cap(built(m, v));
    return v.line && v.line.moves.length && !v.pos.turn_done ? v.pos.status : m.status || "";
  }

  function render() {
    const m = st.match;
    if (!m) return;
    const v = boardView(m);
    const replay = st.view !== null;
    const targets = v.targets || [];
    const pick = st.busy ? null : v.onPick || null; // a move in flight: no click until its answer (none dropped)
    peek.hide();
    renderBoard(board, v.pos.svg, { targets, pictures: v.pos.pictures || [], onPick: pick, hintCell: cellOf(v.hint, v.pos),
      onHover: pick ? peek.hover : null, onRefused: pick ? refuse : null, title: built(m, v) });
    board.classList.toggle("replay", replay && !st.scratch);
    board.classList.toggle("scratch", !!st.scratch);
    board.classList.toggle("active", !!pick);
    Object.assign(board.dataset, { ply: String(m.ply), view: v.view, over: String(!!m.over), thinking: String(!!m.thinking),
      staged: String(v.line ? v.line.moves.length : 0) });
    reviewGraph(m);

    const me = mine();
    const open = m.seats.indexOf("open");
    const hasAI = m.seats.some((s) => String(s).startsWith("ai:"));
    const canUndo = me.length > 0 && (hasAI || me.length === 2) && m.ply > 0 && !m.thinking;
    const words = v.onPick ? targets.filter((t) => t.cell === null || t.cell === undefined) : [];
    const labels = v.pos.labels || {};
    const opts = Object.entries(m.options || {}).map(([k, val]) => `${k}=${Array.isArray(val) ? val.join(",") : val}`).join(" ");

    const parts = [
      h("h2", {}, m.game, h("span.muted.opts", {}, ` ${opts}`)),
      h("div.seats", {}, seatLine(m)),
      ratedLine(m),
      resultBanner(m),
      replay || !m.over ? h("p.status", { id: "status", role: "status" }, statusText(m, v)) : null,
      thinkingLine(m),
      !st.connected ? h("p.muted.small", {}, "reconnecting…") : null,
    ];
    if (open >= 0 && me.length === 0) {
      parts.push(h("button.primary", { id: "join", type: "button", onclick: () => act(async () => {
        const r = await api.join(id);
        st.seat = { token: r.token, seats: [r.seat] };
        api.keepSeat(id, r.token, [r.seat]);
        return api.getMatch(id);
      }) }, `Join as ${seatName(open, st.players)}`));
    } else if (me.length === 0) {
      parts.push(h("p.muted", { id: "watching" }, "You are watching this match live."));
    }
    if (open >= 0 && me.length > 0) {
      const link = api.shareLink(id);
      const field = h("input", { id: "share", type: "text", readOnly: true, value: link, onfocus: (e) => e.target.select() });
      parts.push(h("div.share", {}, h("label", { for: "share" }, "Share this link with your opponent:"), field, ...copyButton(field)));
    }
    if (words.length) {
      parts.push(h("div.words", {}, words.map((t) => h(`button${t.move === "end" ? ".primary" : ""}`, {
        type: "button", dataset: { move: t.move }, onclick: () => v.onPick(t.move),
      }, cap(labels[t.move] || t.move)))));
    }
    if (v.line) {
      parts.push(stagedBox(v.line, { onRemove: (i) => unstage(v.line, i), onClear: () => { st.line = null; say(""); render(); },
        onConfirm: () => act(() => api.turn(id, v.line.moves, token(), m.ply)) }));
    }
    if (st.scratch) {
      parts.push(scratchPanel(st.scratch, plyText(m.turns || [], st.scratch.ply), st.scratchHint && hintText(st.scratchHint), {
        onBack: () => unstage(st.scratch, st.scratch.moves.length - 1),
        onHint: () => act(async () => {
          st.scratchHint = await api.hintAt(id, st.scratch.ply, st.scratch.moves);
          render();
        }),
        onExit: () => jump(st.scratch.ply) }));
    } else if (!replay && st.hint) {
      parts.push(hintText(st.hint));
    }
    const actions = h("div.actions", {},
      canUndo ? h("button", { id: "undo", type: "button", onclick: () => act(() => api.undo(id, token(), m.ply)) }, "Undo") : null,
      myTurn() && !replay && !m.help_closed ? h("button", { id: "hint-btn", type: "button", onclick: () => act(async () => {
        st.hint = await api.hint(id, token());
        render();
      }) }, "Hint") : null,
      me.length && !m.over ? h("button.danger", { id: "resign", type: "button", onclick: () => {
        if (window.confirm("Resign this game?")) act(() => api.resign(id, token()));
      } }, "Resign") : null,
      m.over && !st.review ? h("button", { id: "review-btn", type: "button", onclick: review }, "Review with the AI") : null,
      m.over && replay && !st.scratch ? h("button", { id: "try-line", type: "button", onclick: tryLine }, "Try a line") : null);
    parts.push(actions, h("div.settings", {}, builderSetting(m, me, () => { st.line = null; render(); }), soundSetting()),
      h("p.error", { role: "alert" }));
    if (st.review && st.review.status !== "done") parts.push(reviewProgress(st.review));
    parts.push(h("section.history", {},
      h("h3", {}, "Moves"),
      moveList(m),
      h("div.replaynav", {},
        h("button", { id: "first", type: "button", "aria-label": "first position", onclick: () => jump(0) }, "«"),
        h("button", { id: "prev", type: "button", "aria-label": "previous move", onclick: () => jump(here() - 1) }, "◀"),
        h("button", { id: "next", type: "button", "aria-label": "next move", onclick: () => jump(here() + 1) }, "▶"),
        h("button", { id: "live", type: "button", class: replay ? "primary" : "", disabled: !replay, onclick: () => jump(m.ply) }, "Live")),
      h("p.muted.small", {}, "← → keys step through the moves")));
    parts.push(chatPanel(m));
    parts.push(h("div.records", {}, "Record: ",
      h("a", { id: "dl-json", href: api.recordUrl(id, "json"), download: `hexarena-${id}.json` }, "JSON"), " · ",
      h("a", { id: "dl-txt", href: api.recordUrl(id, "txt"), download: `hexarena-${id}.txt` }, "text"), " · ",
      h("a", { href: "#/" }, "Lobby")));
    const focused = document.activeElement && document.activeElement.id;
    const draft = panel.querySelector("#chat-text")?.value;
    panel.replaceChildren(...parts.filter(Boolean));
    if (draft) panel.querySelector("#chat-text").value = draft;
    if (focused) document.getElementById(focused)?.focus();
    const chatLines = panel.querySelector("#chat-lines");
    if (chatLines) chatLines.scrollTop = chatLines.scrollHeight;
    const cur = panel.querySelector('.mv[aria-current="step"]');
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  // the review's win-rate graph under the board, once it is done
  function reviewGraph(m) {
    const done = st.review && st.review.status === "done" && st.review.plies.length;
    const shown = st.scratch ? st.scratch.ply : st.view ?? m.ply;
    graphBox.replaceChildren(...(done ? [rateGraph(st.review.plies, shown, st.players && st.players[0], jump)] : []));
  }

  function chatPanel(m) {
    const lines = m.chat || [];
    const me = mine();
    const toggle = h("button.linklike.small", { type: "button", id: "chat-toggle", "aria-expanded": String(!st.chatHidden), onclick: () => {
      st.chatHidden = !st.chatHidden;
      localStorage.setItem(CHAT_HIDDEN, st.chatHidden ? "yes" : "no");
      render();
    } }, st.chatHidden ? "Show" : "Hide");
    const head = h("h3", {}, "Chat ", toggle);
    if (st.chatHidden) return h("section.chat", { id: "chat" }, head);
    const input = h("input", { id: "chat-text", maxLength: 500, placeholder: "say something to your opponent", "aria-label": "chat message", autocomplete: "off" });
    const form = me.length ? h("form", {
      onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value;
        if (!text.trim()) return;
        act(async () => {
          const r = await api.chat(id, text, token());
          input.value = "";
          return r;
        });
      },
    }, input, h("button", { type: "submit", id: "chat-send" }, "Send")) : h("p.muted.small", {}, "Only the players write here.");
    return h("section.chat", { id: "chat" }, head,
      h("ul.chat-lines", { id: "chat-lines", "aria-live": "polite" }, lines.map((l) => h("li", {}, h("span.chat-from", {}, `${l.from}:`), l.text))),
      form);
  }

  const here = () => st.want ?? st.view ?? st.match.ply; // the position shown, or being fetched
  const onKey = (ev) => {
    if (!st.match || ev.target.closest("input, textarea, select")) return;
    if (ev.key === "ArrowLeft") jump(here() - 1);
    else if (ev.key === "ArrowRight") jump(here() + 1);
    else if (ev.key === "Escape") closeChooser();
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  me().then((a) => {
    st.account = a;
    if (a) render(); // (a guest's page stays as drawn: a redraw would close an open chooser)
  }).catch(() => {});
  const ticker = setInterval(() => {
    tick(panel);
    const c = st.match && st.match.clock;
    if (c && c.running !== null && c.running !== undefined && !st.match.over) {
      for (const el of panel.querySelectorAll(".clock.running, #deadline")) {
        const left = (Date.parse(c.deadline) - api.serverNow()) / 1000;
        if (el.id === "deadline") el.textContent = ` · ${timeLeft(c.deadline)}`;
        else {
          el.textContent = clockText(left);
          el.classList.toggle("low", left < 10);
          warnLow(c.running, left);
        }
      }
    }
  }, 500);
  api.getMatch(id).then((m) => {
    accept(m);
    api.games().then((gs) => {
      st.players = (gs.find((g) => g.name === m.game) || {}).players || null;
      render();
    }).catch(() => {});
  }).catch((e) => {
    page.replaceChildren(h("section.card", {}, h("p.error", {}, e.message), h("a", { href: "#/" }, "Back to the lobby")));
  });
  const stop = api.live(id, accept, (up) => {
    st.connected = up;
    render();
  });
  return () => {
    stop();
    stopReview();
    clearInterval(ticker);
    closeChooser();
    document.removeEventListener("keydown", onKey);
  };
}

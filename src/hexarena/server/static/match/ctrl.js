// The match page's controller (lila's round ctrl): the page's state, what each action of the player does, and
// accept() of every match object (an answer, or the live socket's). The views read it; `ui` is the page's:
// redraw(), say(msg) near the board, error(msg) in the panel, and the screen reader's news element.
import * as api from "../api.js";
import { Line, Previews } from "../line.js";
import { pollReview } from "../review.js";
import { sound } from "../sound.js";
import { said } from "../thinking.js";

const CHAT_HIDDEN = "hexarena.chat.hidden";
const time = (m) => Date.parse(m.updated || "") || 0;

export class MatchCtrl {
  constructor(id, ui) {
    Object.assign(this, { id, ui, seat: api.mySeat(id), match: null, account: null, view: null, want: null,
      players: null, viewSvg: null, viewStatus: "", hint: null, busy: false, connected: false,
      chatHidden: localStorage.getItem(CHAT_HIDDEN) === "yes", warned: new Set(), line: null, scratch: null,
      scratchHint: null, review: null, stopReview: () => {} });
    this.previews = new Previews(id);
  }

  // the line the board shows: the scratch line, my staged steps, or none (the match's position)
  base() {
    return this.scratch || this.line || { ply: this.match.ply, moves: [] };
  }

  // my seats: the ones this browser's seat token holds, and the ones of my account
  mine() {
    const seats = new Set(this.seat ? this.seat.seats : []);
    const infos = (this.match && this.match.seat_info) || [];
    if (this.account) infos.forEach((s, p) => { if (s.name === this.account.name) seats.add(p); });
    return [...seats].sort();
  }

  token() {
    return this.seat ? this.seat.token : null;
  }

  myTurn() {
    const m = this.match;
    return m && !m.over && !m.thinking && this.mine().includes(m.to_move);
  }

  // the position shown, or being fetched
  here() {
    return this.want ?? this.view ?? this.match.ply;
  }

  async act(fn) {
    if (this.busy) return;
    this.busy = true;
    this.ui.error("");
    this.ui.redraw();
    try {
      const m = await fn();
      if (m && m.id !== undefined) this.accept(m);
    } catch (e) {
      if (e.status === 409) await api.getMatch(this.id).then((m) => this.accept(m), () => {}); // stale: as it is now
      this.ui.error(e.message);
    } finally {
      this.busy = false;
      this.ui.redraw();
    }
  }

  accept(m) {
    if (this.match && time(m) && time(m) < time(this.match)) return; // an older answer than a live message
    const before = this.match, waiting = before && !this.myTurn(), news = this.ui.news;
    if (before && m.ply !== before.ply) {
      news.textContent = `${m.ply > before.ply ? `Played ${m.moves[m.moves.length - 1]}` : "Taken back"}. ${m.status || ""}`;
      Object.assign(this, { hint: null, line: null });
      this.previews.clear();
      this.ui.say("");
    }
    this.match = m;
    const thinks = said(m);
    if (thinks) news.textContent = `${before && m.ply !== before.ply ? news.textContent : ""} ${thinks}`.trim();
    if (before && m.ply > before.ply) sound("move");
    if (waiting && this.myTurn()) sound("turn"); // the turn passed to my seat (from the AI's, or an opponent's)
    if (this.view !== null && this.view >= m.ply) this.view = null;
    if (this.view === null) this.want = null;
    this.ui.redraw();
  }

  play(mv) {
    return this.act(() => api.move(this.id, mv, this.token(), this.match.ply));
  }

  // a step added to a line (staged, or scratch), previewed by the server; its refusal said near the board
  async extend(line, mv) {
    if (this.busy) return;
    this.busy = true;
    this.ui.redraw();
    try {
      await line.add(mv);
      this.scratchHint = null;
      this.ui.say("");
      this.ui.news.textContent = `${mv} staged. ${line.pos.status || ""}`;
    } catch (e) {
      this.ui.say(e.message);
    } finally {
      this.busy = false;
    }
    this.ui.redraw();
  }

  // a step taken out of a line (the rest previewed again)
  async unstage(line, i) {
    try {
      await line.remove(i);
      this.scratchHint = null;
      this.ui.say("");
    } catch (e) {
      this.ui.say(e.message);
    }
    this.ui.redraw();
  }

  // a click on a cell no move is played by: the server says why, as the cell's move after the line
  async refuse(cell) {
    const b = this.base();
    this.ui.say(await this.previews.reason(b.ply, [...b.moves, cell]));
  }

  clearLine() {
    this.line = null;
    this.ui.say("");
    this.ui.redraw();
  }

  async tryLine() {
    try {
      const ply = this.view;
      this.scratch = new Line(this.previews, ply, await this.previews.get(ply, []));
      this.ui.say("");
      this.ui.redraw();
    } catch (e) {
      this.ui.error(e.message);
    }
  }

  startReview() {
    this.review = { status: "running", progress: 0, plies: [] };
    this.ui.redraw();
    this.stopReview = pollReview(this.id, (r) => {
      this.review = r;
      this.ui.redraw();
    }, (e) => {
      this.review = null;
      this.ui.redraw();
      this.ui.error(e.message);
    });
  }

  async jump(ply) {
    const m = this.match;
    if (!m) return;
    ply = Math.max(0, Math.min(ply, m.ply));
    Object.assign(this, { want: ply, scratch: null });
    this.ui.say("");
    if (ply === m.ply) {
      this.view = this.want = null;
      this.ui.redraw();
      return;
    }
    try {
      const pos = await api.position(this.id, ply);
      if (this.want !== ply) return; // a later jump was asked meanwhile
      Object.assign(this, { view: ply, viewSvg: pos.svg, viewStatus: pos.status });
      this.ui.redraw();
    } catch (e) {
      this.ui.error(e.message);
    }
  }

  join() {
    return this.act(async () => {
      const r = await api.join(this.id);
      this.seat = { token: r.token, seats: [r.seat] };
      api.keepSeat(this.id, r.token, [r.seat]);
      return api.getMatch(this.id);
    });
  }

  confirm(line) {
    return this.act(() => api.turn(this.id, line.moves, this.token(), this.match.ply));
  }

  undo() {
    return this.act(() => api.undo(this.id, this.token(), this.match.ply));
  }

  resign() {
    if (window.confirm("Resign this game?")) this.act(() => api.resign(this.id, this.token()));
  }

  askHint() {
    return this.act(async () => {
      this.hint = await api.hint(this.id, this.token());
      this.ui.redraw();
    });
  }

  askScratchHint() {
    return this.act(async () => {
      this.scratchHint = await api.hintAt(this.id, this.scratch.ply, this.scratch.moves);
      this.ui.redraw();
    });
  }

  // a chat line sent; the input emptied once it is
  chat(input) {
    const text = input.value;
    if (!text.trim()) return;
    this.act(async () => {
      const r = await api.chat(this.id, text, this.token());
      input.value = "";
      return r;
    });
  }

  toggleChat() {
    this.chatHidden = !this.chatHidden;
    localStorage.setItem(CHAT_HIDDEN, this.chatHidden ? "yes" : "no");
    this.ui.redraw();
  }
}

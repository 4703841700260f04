// Lines of moves previewed by the server (POST /preview; the page never judges a rule): the turn builder's
// staged steps, a review's scratch line, a hovered move's effect.
import * as api from "./api.js";

const MOST_CACHED = 200;

// The previews of one match's lines, cached per (ply, moves); clear() when the match's moves change.
export class Previews {
  constructor(id) {
    this.id = id;
    this.cache = new Map();
  }

  get(ply, moves) {
    const key = JSON.stringify([ply, moves]);
    if (!this.cache.has(key)) {
      if (this.cache.size >= MOST_CACHED) this.cache.delete(this.cache.keys().next().value);
      const asked = api.preview(this.id, ply, moves);
      asked.catch((e) => { if (e.status !== 400) this.cache.delete(key); }); // keep only the rules' refusals
      this.cache.set(key, asked);
    }
    return this.cache.get(key);
  }

  // why the line (ply, moves) is refused: the server's one line, or null if it is legal
  async reason(ply, moves) {
    try {
      await this.get(ply, moves);
      return null;
    } catch (e) {
      return e.message;
    }
  }

  clear() {
    this.cache.clear();
  }
}

// A line from the match's `ply`: its moves and `pos`, the position after them (`start` before any).
export class Line {
  constructor(previews, ply, start) {
    Object.assign(this, { previews, ply, start, moves: [], pos: start });
  }

  // play `move` at the end of the line (rejects with the server's reason, the line unchanged)
  async add(move) {
    const moves = [...this.moves, move];
    this.pos = await this.previews.get(this.ply, moves);
    this.moves = moves;
  }

  // take out the i-th move; if the rest is refused, the line keeps the moves before it (and rejects)
  async remove(i) {
    const rest = this.moves.filter((_, k) => k !== i);
    try {
      await this.set(rest);
    } catch (e) {
      await this.set(this.moves.slice(0, i));
      throw e;
    }
  }

  async set(moves) {
    this.pos = moves.length ? await this.previews.get(this.ply, moves) : this.start;
    this.moves = moves;
  }
}

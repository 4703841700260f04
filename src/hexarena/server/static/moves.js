// The move list: "turns" as records write them, each written move with the ply after it
// (a written move may join several atomic steps: Push and Pull's "o5 -2 2").

// [{turn, moves: [{text, ply}]}]: the plies matched against the atomic "moves".
export function movePlies(turns, atomic) {
  let i = 0;
  let fallback = false;
  const out = [];
  for (const [turn, written] of turns || []) {
    const entry = { turn, moves: [] };
    for (const text of written) {
      if (!fallback) {
        const words = text.split(/\s+/).filter((w) => w && w !== "--");
        let j = i;
        while (words.length && j < atomic.length) {
          const step = atomic[j].split(/\s+/).filter(Boolean);
          if (step.some((w, k) => words[k] !== w)) break;
          words.splice(0, step.length);
          j += 1;
        }
        if (words.length || j === i) fallback = true;
        else i = j;
      }
      if (fallback) i += 1;
      entry.moves.push({ text, ply: Math.min(i, atomic.length) });
    }
    out.push(entry);
  }
  return out;
}

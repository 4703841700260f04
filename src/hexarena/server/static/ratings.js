// Ratings (Glicko-2, one per game): how one is written, a player's ratings, their history chart and record against
// the AI, and the leaderboard page (#/leaderboard/GAME: the established players and the AI ladder).
import * as api from "./api.js";
import { aiName, h, playerLink, svg } from "./dom.js";

const PROVISIONAL_RD = 110; // as the server judges: a rating less sure than this is provisional, written with "?"

// "1623", or "1500?" while provisional.
export const ratingText = (rating, rd) => `${Math.round(rating)}${rd > PROVISIONAL_RD ? "?" : ""}`;

// A seat's rating in a match: "1500?", and once rated "1500? → 1662? (+162)".
export function ratingChange(r) {
  const before = ratingText(r.before, r.rd);
  if (r.after === null || r.after === undefined) return before;
  const diff = Math.round(r.after) - Math.round(r.before);
  return `${before} → ${ratingText(r.after, r.rd_after)} (${diff < 0 ? "−" : "+"}${Math.abs(diff)})`;
}

export const leaderboardHref = (game) => `#/leaderboard/${encodeURIComponent(game)}`;

// A table: column headings, then rows of cells (the first cell of a row heads it).
function table(spec, attrs, headings, rows) {
  return h(`table.${spec}`, attrs,
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map(([first, ...cells]) => h("tr", {}, h("th", { scope: "row" }, first), cells.map((c) => h("td", {}, c))))));
}

// A player's rating per game, linked to the game's leaderboard.
export function ratingsTable(ratings, id) {
  const rows = Object.entries(ratings || {});
  if (!rows.length) return h("p.muted", { id }, "No rated game yet.");
  return table("ratings", { id }, ["Game", "Rating", "Deviation", "Rated games"],
    rows.map(([g, r]) => [h("a", { href: leaderboardHref(g) }, g), ratingText(r.rating, r.rd), Math.round(r.rd), r.games]));
}

// The chart of a player's rating in a game: the rating before the first rated game, then after each one.
const W = 480, H = 200, LEFT = 52, RIGHT = 14, TOP = 12, BOTTOM = 40;
const OUTCOME = { 1: "won", 0.5: "drew", 0: "lost" };

function scale(values) {
  const lo = Math.floor((Math.min(...values) - 10) / 50) * 50, hi = Math.ceil((Math.max(...values) + 10) / 50) * 50;
  return { lo, hi, y: (v) => H - BOTTOM - ((v - lo) / (hi - lo)) * (H - TOP - BOTTOM) };
}

function gameTicks(n) {
  const step = Math.max(1, Math.ceil(n / 6));
  const ticks = [];
  for (let i = 0; i < n; i += step) ticks.push(i);
  return [...ticks, n];
}

export function historyChart(game, rows) {
  const values = [rows[0].before, ...rows.map((r) => r.after)];
  const { lo, hi, y } = scale(values);
  const x = (i) => LEFT + (i / rows.length) * (W - LEFT - RIGHT);
  const day = (r) => r.at.slice(0, 10);
  const id = `chart-${game}`;
  return svg("svg.chart", { viewBox: `0 0 ${W} ${H}`, role: "img", id, "aria-labelledby": `${id}-title ${id}-desc` },
    svg("title", { id: `${id}-title` }, `Rating history in ${game}`),
    svg("desc", { id: `${id}-desc` }, `${rows.length} rated games from ${day(rows[0])} to ${day(rows.at(-1))}: `
      + `${Math.round(values[0])} at first, ${Math.round(values.at(-1))} after the last game.`),
    [lo, (lo + hi) / 2, hi].flatMap((v) => [svg("line.grid", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v) }),
      svg("text.tick.y", { x: LEFT - 6, y: y(v) + 4 }, Math.round(v))]),
    gameTicks(rows.length).map((i) => svg("text.tick.x", { x: x(i), y: H - BOTTOM + 16 }, i)),
    svg("line.axis", { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM }),
    svg("line.axis", { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM }),
    svg("text.label", { x: (LEFT + W - RIGHT) / 2, y: H - 6 }, "rated games played"),
    svg("text.label", { x: -(TOP + H - BOTTOM) / 2, y: 14, transform: "rotate(-90)" }, "rating"),
    svg("polyline.line", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }),
    rows.map((r, i) => svg(`circle.point.${OUTCOME[r.score]}`, { cx: x(i + 1), cy: y(r.after), r: 4 },
      svg("title", {}, `game ${i + 1} (${day(r)}): ${OUTCOME[r.score]}, ${Math.round(r.before)} → ${Math.round(r.after)}`))));
}

// A player's ratings: the table, then per game its history chart and the record against each AI level.
export function profileRatings(u) {
  const games = [...new Set([...Object.keys(u.history || {}), ...Object.keys(u.against_ai || {})])].sort();
  return [h("h3", {}, "Ratings"), ratingsTable(u.ratings, "profile-ratings"),
    ...games.map((g) => h("section.game-rating", { dataset: { game: g } },
      h("h4", {}, g, " ", h("a.small", { href: leaderboardHref(g) }, "leaderboard")),
      u.history && u.history[g] ? historyChart(g, u.history[g]) : null,
      u.against_ai && u.against_ai[g] ? table("ai-record", {}, ["Against", "Won", "Lost", "Drawn"],
        u.against_ai[g].map((r) => [playerLink(r.name, aiName(r.level)), r.wins, r.losses, r.draws])) : null))];
}

// #/leaderboard/GAME (the first game for #/leaderboard): a game chooser, its top players and its AI ladder.
export function showLeaderboard(root, game) {
  const card = h("section.card.leaderboard", {}, h("p.muted", {}, "Loading…"));
  root.append(card);
  api.games().then(async (games) => {
    const name = game || (games[0] && games[0].name);
    const [top, ladder] = await Promise.all([api.leaderboard(name), api.ladder(name)]);
    card.replaceChildren(h("h2", {}, `Leaderboard: ${name}`),
      h("nav.gametabs", { "aria-label": "Games" }, games.map((g) => h("a.tab", {
        href: leaderboardHref(g.name), "aria-current": g.name === name ? "page" : null }, g.name))),
      h("p.muted.small", {}, "Players appear once established: their rating deviation at most 110 (a provisional rating, shown with ?, is not ranked)."),
      h("div.boards", {},
        h("section", {}, h("h3", {}, "Top players"), top.length ? table("board", { id: "leaders" }, ["Rank", "Player", "Rating", "Deviation", "Rated games"],
          top.map((r, i) => [i + 1, playerLink(r.name), Math.round(r.rating), Math.round(r.rd), r.games])) : h("p.muted", { id: "leaders" }, "No established player yet.")),
        h("section", {}, h("h3", {}, "The AI ladder"), table("board", { id: "ladder" }, ["Level", "Rating", "Deviation", "Rated games"],
          ladder.map((r) => [playerLink(r.name, aiName(r.level)), ratingText(r.rating, r.rd), Math.round(r.rd), r.games])))));
  }).catch((e) => card.replaceChildren(h("p.error", {}, e.message), h("a", { href: "#/" }, "Back to the lobby")));
  return null;
}

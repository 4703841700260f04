// The event's tables: the entrants before the start, the standings (points and tie-breaks) and the crosstable,
// each in a box that scrolls sideways on a narrow screen.
import { h, playerLink } from "../dom.js";
import { pointsText } from "./words.js";

const GRID_MOST = 16; // entrants: more, and the crosstable lists each row's games instead of a column per opponent

// a table in a box that scrolls sideways (a keyboard's too: the box is a tab stop, named; its id the table's and
// "-box", so that a redraw keeps its focus and scroll)
export const scrolling = (label, table) => h("div.table-scroll", { tabindex: "0", role: "region", "aria-label": label,
  id: table.id ? `${table.id}-box` : null }, table);
// a table's head from its columns: a name, or {text, num (right-aligned, as its cells), title (the text's words in
// full: an abbreviation)}
export const head = (cols) => h("thead", {}, h("tr", {}, cols.map((c) => (typeof c === "string" ? h("th", { scope: "col" }, c)
  : h(`th${c.num ? ".num" : ""}`, { scope: "col" }, c.title ? h("abbr", { title: c.title }, c.text) : c.text)))));
const named = (row) => [playerLink(row.name), row.withdrawn ? h("span.withdrawn", {}, " withdrawn") : null];

export function entrantsTable(e) {
  const players = e.players || [];
  if (!players.length) return h("p.muted", { id: "entrants-empty" }, "Nobody has entered yet.");
  return scrolling("Entrants", h("table.event-table", { id: "entrants" }, head(["Name", { text: "Rating", num: true }]),
    h("tbody", {}, players.map((p) => h("tr", {}, h("th", { scope: "row" }, named(p)),
      h("td.num", {}, p.rating === null || p.rating === undefined ? "" : String(Math.round(p.rating))))))));
}

const num = (text, title = null) => ({ text, num: true, title });
const STANDING = [num("#"), "Name", num("Points"), num("Bh", "Buchholz"), num("Bh−1", "Buchholz cut 1"),
  num("SB", "Sonneborn-Berger"), num("Wins"), num("Games")];
const TIE_BREAKS = "Bh: Buchholz, the points of the opponents met; Bh−1: the same without the lowest; SB: "
  + "Sonneborn-Berger, the points of the opponents beaten and half those of the opponents drawn with. A bye is 1 point, "
  + "not a win.";

export function standingsTable(e) {
  const rows = e.standings || [];
  if (!rows.length) return h("p.muted", {}, "No standings yet.");
  const cell = (x) => h("td.num", {}, pointsText(x));
  return [scrolling("Standings", h("table.event-table.standings", { id: "standings" }, head(STANDING),
    h("tbody", {}, rows.map((r) => h(`tr${r.withdrawn ? ".is-withdrawn" : ""}`, { dataset: { name: r.name } },
      h("td.num", {}, String(r.rank)), h("th", { scope: "row" }, named(r)), cell(r.points), cell(r.buchholz),
      cell(r.buchholz_cut1), cell(r.sonneborn_berger), h("td.num", {}, String(r.wins)), h("td.num", {}, String(r.games))))))),
  h("p.small.muted.legend", {}, TIE_BREAKS)];
}

// a crosstable row's games against one opponent ("1 ½" for two games), or "" for none
const against = (row, name) => ((row.results || {})[name] || []).join(" ");
const byes = (row) => (row.byes || []).map((r) => `R${r}`).join(" ");

// one column per opponent, by their rank (a small event)
function gridRows(rows, points) {
  return rows.map((row, i) => h("tr", { dataset: { name: row.name } },
    h("td.num", {}, String(i + 1)), h("th", { scope: "row" }, playerLink(row.name)),
    rows.map((other, j) => (i === j ? h("td.self", { "aria-label": "same player" }, "×")
      : h("td.num", { dataset: { against: other.name } }, against(row, other.name)))),
    h("td", {}, byes(row)), h("td.num", {}, pointsText(points.get(row.name)))));
}

// each row's games as "#rank result" (a big event)
function listRows(rows, points) {
  const rank = new Map(rows.map((r, i) => [r.name, i + 1]));
  return rows.map((row, i) => h("tr", { dataset: { name: row.name } },
    h("td.num", {}, String(i + 1)), h("th", { scope: "row" }, playerLink(row.name)),
    h("td", {}, Object.keys(row.results || {}).sort((a, b) => rank.get(a) - rank.get(b))
      .map((name) => `#${rank.get(name)} ${against(row, name)}`).join(", ")),
    h("td", {}, byes(row)), h("td.num", {}, pointsText(points.get(row.name)))));
}

// e.crosstable's rows are in standings order: a column per opponent up to GRID_MOST entrants, a list beyond
export function crossTable(e) {
  const rows = e.crosstable || [];
  if (!rows.length || !(e.pairings || []).length) return h("p.muted", {}, "The crosstable fills in as games end.");
  const points = new Map((e.standings || []).map((r) => [r.name, r.points]));
  const grid = rows.length <= GRID_MOST;
  const cols = [num("#"), "Name", ...(grid ? rows.map((_, i) => num(String(i + 1))) : ["Games"]), "Byes", num("Points")];
  return scrolling("Crosstable", h(`table.event-table.crosstable${grid ? ".grid" : ""}`, { id: "crosstable" }, head(cols),
    h("tbody", {}, grid ? gridRows(rows, points) : listRows(rows, points))));
}

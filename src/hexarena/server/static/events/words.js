// How the event pages write an event's facts: its format, round, start, a game's result, a player's points.
import { controlText } from "../lobby/seek_fields.js";

export const FORMATS = { "swiss": "Swiss", "round-robin": "Round robin", "double-round-robin": "Double round robin",
  "knockout": "Knockout" };
export const STATUSES = ["upcoming", "running", "finished"];

export const formatText = (format) => FORMATS[format] || format;
export const clockText = (clock) => (clock ? controlText(clock) : "");

// "2 / 3", "— / 3" before the start, "—" while the number of rounds is not known yet (a round robin's entrants)
export const roundText = (e) => (e.rounds ? `${e.round || "—"} / ${e.rounds}` : "—");

// the start: a local date and time, or who starts it
export function startsText(e) {
  if (e.starts) return new Date(e.starts).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  return e.status === "upcoming" ? "when its creator starts it" : "";
}

// points and tie-breaks: 2.5 as "2½", 3 as "3"
export function pointsText(x) {
  if (x === null || x === undefined) return "";
  const whole = Math.floor(x), half = Math.abs(x - whole - 0.5) < 1e-9;
  if (half) return whole ? `${whole}½` : "½";
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

// a game's result from seat 0's side: "1–0", "0–1", "½–½", or "" while it goes on
export function resultText(result) {
  return { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½" }[result] || "";
}

// a date as the lists write it
export const dayText = (iso) => (iso ? new Date(iso).toLocaleDateString() : "");

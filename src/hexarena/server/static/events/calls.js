// The server's tournaments and championships (docs/server.md "Tournaments"): events read by anyone, changed by a
// signed-in account; an event's live feed.
import { api, socket } from "../api.js";

const enc = encodeURIComponent;
const event = (id, action) => api("POST", `/api/tournaments/${enc(id)}/${action}`, {});

// [event summary, ...] newest first; `status`: upcoming, running or finished; `game`: one game's, or "" for all
export function listEvents(status, game) {
  const q = new URLSearchParams({ status });
  if (game) q.set("game", game);
  return api("GET", `/api/tournaments?${q}`);
}
export const getEvent = (id) => api("GET", `/api/tournaments/${enc(id)}`);
export const createEvent = (body) => api("POST", "/api/tournaments", body);
export const joinEvent = (id) => event(id, "join");
export const withdrawEvent = (id) => event(id, "withdraw");
export const startEvent = (id) => event(id, "start");
export const inviteToEvent = (id, name) => api("POST", `/api/tournaments/${enc(id)}/invite`, { name });
export const exportUrl = (id) => `/api/tournaments/${enc(id)}/export.json`;

// The event object on connect and after every change of the event or of one of its games.
export const eventLive = (id, onMessage, onState) => socket(`/api/tournaments/${enc(id)}/live`,
  (data) => { if (data && data.id !== undefined) onMessage(data); }, onState);

export const championships = () => api("GET", "/api/championships");
export const championship = (game) => api("GET", `/api/championships/${enc(game)}`);
export const joinChampionship = (game) => api("POST", `/api/championships/${enc(game)}/join`, {});
export const leaveChampionship = (game) => api("POST", `/api/championships/${enc(game)}/leave`, {});

export const eventHref = (id) => `#/events/${enc(id)}`;

// The server's HTTP and WebSocket API (docs/server.md) and the seat tokens kept per match.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "the server cannot be reached");
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, msg);
  }
  return data;
}

const enc = encodeURIComponent;
let gamesOnce = null;
export const games = () => (gamesOnce ??= api("GET", "/api/games").catch((e) => { gamesOnce = null; throw e; }));
export const listMatches = (which) => api("GET", `/api/matches?list=${enc(which)}`);
export const createMatch = (game, options, seats) => api("POST", "/api/matches", { game, options, seats });
export const importMatch = (record, seats) => api("POST", "/api/matches/import", { record, seats });
export const getMatch = (id) => api("GET", `/api/matches/${enc(id)}`);
export const join = (id) => api("POST", `/api/matches/${enc(id)}/join`, {});
export const move = (id, mv, token, ply) => api("POST", `/api/matches/${enc(id)}/moves`, { move: mv, token, ply });
export const undo = (id, token, ply) => api("POST", `/api/matches/${enc(id)}/undo`, { token, ply });
export const resign = (id, token) => api("POST", `/api/matches/${enc(id)}/resign`, { token });
export const hint = (id, token) => api("GET", `/api/matches/${enc(id)}/hint?token=${enc(token)}`);
export const position = (id, ply) => api("GET", `/api/matches/${enc(id)}/position?ply=${ply}`);
export const recordUrl = (id, ext) => `/api/matches/${enc(id)}/record.${ext}`;
export const shareLink = (id) => `${location.origin}/#/match/${enc(id)}`;

// Seats: {token, seats: [seat indices]} per match id, so that a reload keeps the seat.
const KEY = "hexarena.seat.";
export function mySeat(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY + id)) || null;
  } catch (e) {
    return null;
  }
}
export function keepSeat(id, token, seats) {
  localStorage.setItem(KEY + id, JSON.stringify({ token, seats }));
}

// The live feed: onMessage(match) on connect and after every change; reconnects on close.
export function live(id, onMessage, onState = () => {}) {
  let ws = null;
  let stopped = false;
  let delay = 500;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/api/matches/${enc(id)}/live`);
    ws.onopen = () => {
      delay = 500;
      onState(true);
    };
    ws.onmessage = (ev) => {
      try {
        const data = JSON.parse(ev.data);
        if (data && data.id !== undefined) onMessage(data);
      } catch (e) {
        console.error("bad live message", e);
      }
    };
    ws.onclose = (ev) => {
      onState(false);
      if (ev.code === 4404) stopped = true; // an unknown match: no use reconnecting
      if (!stopped) {
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      }
    };
  };
  open();
  return () => {
    stopped = true;
    if (ws) ws.close();
  };
}

// The server's HTTP and WebSocket API (docs/server.md) and the seat tokens kept per match.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The csrf cookie, sent back as X-CSRF-Token with every change (a signed-in browser's changes need it).
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

// The server's clock less this browser's (ms), from the X-Server-Time of the newest answer: clocks tick by it.
let serverOffset = 0;
export function serverNow() {
  return Date.now() + serverOffset;
}

export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET" && csrfToken()) init.headers["X-CSRF-Token"] = csrfToken();
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
  const stamp = Number(res.headers.get("X-Server-Time"));
  if (stamp) serverOffset = stamp - Date.now();
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
export const hint = (id, token) => api("GET", `/api/matches/${enc(id)}/hint?token=${enc(token || "")}`);
export const turn = (id, moves, token, ply) => api("POST", `/api/matches/${enc(id)}/turn`, { moves, token, ply });
export const preview = (id, ply, moves) => api("POST", `/api/matches/${enc(id)}/preview`, { moves, ply });
export const analysis = (id) => api("GET", `/api/matches/${enc(id)}/analysis`);
// a finished match's hint at a replay ply, after a scratch line of moves
export const hintAt = (id, ply, moves) =>
  api("GET", `/api/matches/${enc(id)}/hint?ply=${ply}${moves.map((m) => `&move=${enc(m)}`).join("")}`);
export const chat = (id, text, token) => api("POST", `/api/matches/${enc(id)}/chat`, { text, token });

// accounts, seeks, players (docs/server.md, "Accounts")
export const account = () => api("GET", "/api/account");
export const register = (name, password) => api("POST", "/api/account/register", { name, password, seats: heldSeats() });
export const login = (name, password) => api("POST", "/api/account/login", { name, password, seats: heldSeats() });
export const logout = () => api("POST", "/api/account/logout");
export const changePassword = (old, nw) => api("POST", "/api/account/password", { old, new: nw });
export const deleteAccount = (password) => api("DELETE", "/api/account", { password });
export const setEmail = (email) => api("POST", "/api/account/email", { email });
export const myTurn = () => api("GET", "/api/account/turn");
export const myMatches = () => api("GET", "/api/account/matches");
export const user = (name) => api("GET", `/api/users/${enc(name)}`);
export const leaderboard = (game) => api("GET", `/api/leaderboard/${enc(game)}`);
export const ladder = (game) => api("GET", `/api/leaderboard/${enc(game)}/ai`);
export const seeks = (query = "") => api("GET", `/api/seeks${query}`);  // query: "?game=NAME&rating=MIN-MAX"
export const postSeek = (seek) => api("POST", "/api/seeks", seek);
export const acceptSeek = (id) => api("POST", `/api/seeks/${enc(id)}/accept`);
export const dropSeek = (id) => api("DELETE", `/api/seeks/${enc(id)}`);
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
  if (token) localStorage.setItem(KEY + id, JSON.stringify({ token, seats }));
}
// Every guest seat this browser holds, [{match, token}]: signing in gives them to the account.
export function heldSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(KEY)) continue;
    const seat = mySeat(key.slice(KEY.length));
    if (seat && seat.token) out.push({ match: key.slice(KEY.length), token: seat.token });
  }
  return out;
}

// The live feed of a match: onMessage(match) on connect and after every change; reconnects on close. A guest's
// seat token goes along, so a player gets in however many watch (a signed-in player is known by the session).
export function live(id, onMessage, onState = () => {}) {
  const seat = mySeat(id);
  const query = seat && seat.token ? `?token=${enc(seat.token)}` : "";
  return socket(`/api/matches/${enc(id)}/live${query}`, (data) => { if (data && data.id !== undefined) onMessage(data); }, onState);
}

// The signed-in account's feed ("my games"): onMessage(data) on connect and after every change.
export const accountLive = (onMessage, onState = () => {}) => socket("/api/account/live", onMessage, onState);

// A live feed at `path`: onMessage(data) for every message, onState(up) as it connects and drops; reconnects after
// a close (waiting longer each time, at most 8 s) unless the server said the thing is unknown or I am signed out.
export function socket(path, onMessage, onState) {
  let ws = null;
  let stopped = false;
  let delay = 500;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}${path}`);
    ws.onopen = () => {
      delay = 500;
      onState(true);
    };
    ws.onmessage = (ev) => {
      try {
        onMessage(JSON.parse(ev.data));
      } catch (e) {
        console.error("bad live message", e);
      }
    };
    ws.onclose = (ev) => {
      onState(false);
      if (ev.code === 4404 || ev.code === 4401) stopped = true; // an unknown match, signed out: no use reconnecting
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

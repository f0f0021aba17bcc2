// SPDX-License-Identifier: MIT
// api.mjs - the app's only way to the server: the HTTP calls of docs/api.md
// (JSON in and out, errors thrown with the server's one-line message) and a
// game's WebSocket, which reconnects by itself after a drop.

// ApiError: a 4xx/5xx answer; .status is the HTTP status, .message the
// server's "error" line.
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'the server cannot be reached');
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    if (res.ok) return text;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`);
  return data;
}

const q = (token) => (token ? `?token=${encodeURIComponent(token)}` : '');
const g = (id) => `/api/games/${encodeURIComponent(id)}`;

export const variants = () => call('GET', '/api/variants');
export const createGame = (req) => call('POST', '/api/games', req);
export const joinGame = (code) => call('POST', `/api/join/${encodeURIComponent(code)}`, {});
export const getGame = (id, token, extra = '') => call('GET', g(id) + q(token) + (extra ? (token ? '&' : '?') + extra : ''));
export const move = (id, token, mv) => call('POST', `${g(id)}/moves`, { move: mv, token });
export const action = (id, token, act) => call('POST', `${g(id)}/actions`, { action: act, token });
export const rematch = (id, token) => call('POST', `${g(id)}/rematch`, { token });
export const analysis = (req) => call('POST', '/api/analysis', req);
export const importPdn = (req) => call('POST', '/api/import', req);
export const pdnUrl = (id) => `${g(id)}/pdn`;

// pdn(id): the PDN text of a game.
export async function pdn(id) {
  let res;
  try {
    res = await fetch(pdnUrl(id));
  } catch (e) {
    throw new ApiError(0, 'the server cannot be reached');
  }
  const text = await res.text();
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    try { msg = JSON.parse(text).error || msg; } catch (e) { /* not JSON */ }
    throw new ApiError(res.status, msg);
  }
  return text;
}

// GameSocket: the live state of one game. onState(game) is called with each
// {"type":"state"} the server sends; onConn(open) when the socket opens or
// drops. After a drop it reconnects with a growing pause (up to 5 s); the
// server sends the whole state at once on every connection, so nothing is
// missed. close() ends it for good.
export class GameSocket {
  constructor(id, token, onState, onConn) {
    this.url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/games/${encodeURIComponent(id)}${q(token)}`;
    this.onState = onState;
    this.onConn = onConn;
    this.delay = 250;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      this.onConn(true);
      this.ping = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
      }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && msg.type === 'state' && msg.game) this.onState(msg.game);
    };
    ws.onclose = () => {
      clearInterval(this.ping);
      if (this.closed) return;
      this.onConn(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  close() {
    this.closed = true;
    clearInterval(this.ping);
    if (this.ws) this.ws.close();
  }
}

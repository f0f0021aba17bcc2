#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// load.mjs - the load tool of `damier serve` (issue 12): N games at once
// over the HTTP API and the WebSocket, as people play them.
//
// Every game is a "local" game (one token moves both sides: no computer,
// so every move measured is a person's), watched by a WebSocket of its
// own.  Each move is a random one of the state's `legal` list, played
// after a human-like pause (uniform in --think MIN-MAX ms); a finished
// game is replaced by a new one, so N games stay open.  Two round trips
// are measured per move, both from the moment the POST leaves: until its
// answer (`http`), and until the WebSocket brings the state holding the
// move (`push`).  Anything else than a 200 and a push within 10 s is an
// error, counted by its kind.  With --server-pid the server's VmRSS is read
// from /proc every 10 s; with --log every acknowledged move is written as
// a JSON line {"game","token","ply","move"} (a game's creation as ply 0),
// which the crash test checks against the restarted server.
//
// Progress goes to stderr every 10 s; the summary to stdout (and as JSON to
// --json FILE).  Exit 0 when there was no error, 1 otherwise, 2 for bad usage.

import fs from 'node:fs';
import http from 'node:http';
import { WebSocket } from 'ws';

const USAGE = `usage: node tools/load/load.mjs [options]
  --url URL[,URL...] the server (default http://127.0.0.1:8080); several nodes
                     of one service: each request and socket goes to the next
                     in turn (a round-robin load balancer)
  --games N          games open at once (default 100)
  --seconds S        how long to play (default 60)
  --think MIN-MAX    a person's pause before each move, ms (default 2000-8000)
  --ramp S           open the games over S seconds (default: games/200, at most 60)
  --variant ID       the variant of every game (default international)
  --server-pid PID[,PID...]  read the servers' memory (VmRSS, summed) every 10 s
  --log FILE         append every acknowledged move as a JSON line
  --json FILE        write the summary as JSON too
  --sockets N        HTTP connections at most (default: one a game)`;

const PUSH_TIMEOUT_MS = 10000;
const SAMPLE_MS = 10000;

function parseArgs(argv) {
  const o = { url: 'http://127.0.0.1:8080', games: 100, seconds: 60, think: [2000, 8000],
              ramp: null, variant: 'international', serverPids: [], log: null, json: null,
              sockets: 0 };
  const number = (name, text, min) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) usage(`${name} is a whole number from ${min}, not '${text}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    const v = argv[++i];
    if (v === undefined) usage(`${a} needs a value`);
    switch (a) {
      case '--url': o.url = v.replace(/\/$/, ''); break;
      case '--games': o.games = number(a, v, 1); break;
      case '--seconds': o.seconds = number(a, v, 1); break;
      case '--ramp': o.ramp = number(a, v, 0); break;
      case '--variant': o.variant = v; break;
      case '--server-pid': o.serverPids = v.split(',').map((p) => number(a, p, 1)); break;
      case '--log': o.log = v; break;
      case '--json': o.json = v; break;
      case '--sockets': o.sockets = number(a, v, 1); break;
      case '--think': {
        const m = /^(\d+)-(\d+)$/.exec(v);
        if (!m || Number(m[1]) > Number(m[2])) usage(`--think is MIN-MAX in ms (2000-8000), not '${v}'`);
        o.think = [Number(m[1]), Number(m[2])];
        break;
      }
      default: usage(`unknown option '${a}'`);
    }
  }
  if (o.ramp === null) o.ramp = Math.min(60, Math.ceil(o.games / 200));
  return o;
}

function usage(msg) {
  console.error(`load: ${msg}\n${USAGE}`);
  process.exit(2);
}

const opt = parseArgs(process.argv.slice(2));
const bases = opt.url.split(',').map((u) => new URL(u));
let turn = 0;
const nextBase = () => bases[turn++ % bases.length];
const agent = new http.Agent({ keepAlive: true, maxSockets: opt.sockets || opt.games,
                               // under the server's 5 s keep-alive: never reuse a socket it closes
                               timeout: 4000 });
const logFd = opt.log ? fs.openSync(opt.log, 'a') : null;

// ---- measures ---------------------------------------------------------------

class Samples {
  constructor() { this.a = new Float64Array(1 << 16); this.n = 0; }
  add(x) {
    if (this.n === this.a.length) { const b = new Float64Array(this.a.length * 2); b.set(this.a); this.a = b; }
    this.a[this.n++] = x;
  }
  // p50, p90, p99, max of the samples from index `from` on
  summary(from = 0) {
    const s = this.a.slice(from, this.n).sort();
    const at = (q) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN);
    return { count: s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: s.length ? s[s.length - 1] : NaN };
  }
}

const httpMs = new Samples();
const pushMs = new Samples();
const errors = new Map();
let moves = 0, gamesOpened = 0, gamesFinished = 0, active = 0;
const rss = []; // [seconds, kB]

function error(kind) {
  errors.set(kind, (errors.get(kind) || 0) + 1);
}
const errorCount = () => [...errors.values()].reduce((a, b) => a + b, 0);

function readRss() {
  if (!opt.serverPids.length) return null;
  let kb = 0;
  for (const pid of opt.serverPids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (!m) return null;
      kb += Number(m[1]);
    } catch { return null; }
  }
  return kb;
}

// ---- the server ---------------------------------------------------------------

// One request; resolves {status, json} or rejects with the network error.
function request(method, path, body) {
  const base = nextBase();
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const req = http.request({ host: base.hostname, port: base.port, path, method, agent,
                               headers: data ? { 'content-type': 'application/json',
                                                 'content-length': data.length } : {} },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json = null;
          try { json = JSON.parse(text); } catch { /* reported by the caller */ }
          resolve({ status: res.statusCode, json, text });
        });
        res.on('error', reject);
      });
    req.on('error', reject);
    req.setTimeout(30000, () => req.destroy(new Error('no answer in 30 s')));
    if (data) req.write(data);
    req.end();
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const think = () => opt.think[0] + Math.random() * (opt.think[1] - opt.think[0]);
let stopping = false;

// The WebSocket of a game: the latest state it pushed, and waiters for a ply.
function watch(id) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${nextBase().host}/ws/games/${id}`);
    const w = { ws, ply: -1, waiters: [], closed: false };
    ws.on('message', (data) => {
      let m;
      try { m = JSON.parse(data.toString()); } catch { error('ws: a message that is not JSON'); return; }
      if (m.type === 'error') { error(`ws: ${m.error}`); return; }
      if (m.type !== 'state') return;
      w.ply = m.game.ply;
      w.waiters = w.waiters.filter((x) => (x.ply <= w.ply ? (x.resolve(), false) : true));
      resolve(w);
    });
    ws.on('error', (e) => { if (!stopping) error(`ws: ${e.code || e.message}`); reject(e); });
    ws.on('close', () => {
      w.closed = true;
      w.waiters.forEach((x) => x.reject(new Error('closed')));
      w.waiters = [];
    });
  });
}

// Resolves when the socket has pushed ply (rejects after PUSH_TIMEOUT_MS).
function pushed(w, ply) {
  if (w.ply >= ply) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const x = { ply, resolve, reject };
    const t = setTimeout(() => { w.waiters = w.waiters.filter((y) => y !== x); reject(new Error('timeout')); },
                         PUSH_TIMEOUT_MS);
    x.resolve = () => { clearTimeout(t); resolve(); };
    x.reject = (e) => { clearTimeout(t); reject(e); };
    w.waiters.push(x);
  });
}

function logLine(o) {
  if (logFd !== null) fs.writeSync(logFd, JSON.stringify(o) + '\n');
}

// One seat of the table: games one after the other until the end.
async function player(startDelay) {
  await sleep(startDelay);
  while (!stopping) {
    let created;
    try {
      created = await request('POST', '/api/games', { variant: opt.variant, opponent: { type: 'local' } });
    } catch (e) { error(`create: ${e.code || e.message}`); await sleep(1000); continue; }
    if (created.status !== 201) { error(`create: ${created.status} ${created.json?.error ?? ''}`); await sleep(1000); continue; }
    const { id, token } = created.json;
    logLine({ game: id, token, ply: 0 });
    gamesOpened++;
    let w;
    try { w = await watch(id); } catch { await sleep(1000); continue; }
    active++;
    let state = (await request('GET', `/api/games/${id}`).catch(() => null))?.json;
    while (!stopping && state && state.status === 'playing' && !w.closed) {
      await sleep(think());
      if (stopping) break;
      const legal = state.legal;
      const move = legal[Math.floor(Math.random() * legal.length)].notation;
      const ply = state.ply + 1;
      const t0 = performance.now();
      const push = pushed(w, ply).then(() => performance.now() - t0);
      push.catch(() => {});
      let res;
      try {
        res = await request('POST', `/api/games/${id}/moves`, { move, token });
      } catch (e) { error(`move: ${e.code || e.message}`); break; }
      if (res.status !== 200 || !res.json) {
        error(`move: ${res.status} ${res.json?.error ?? res.text.slice(0, 80)}`);
        state = (await request('GET', `/api/games/${id}`).catch(() => null))?.json;
        continue;
      }
      httpMs.add(performance.now() - t0);
      moves++;
      logLine({ game: id, token, ply, move });
      state = res.json;
      try { pushMs.add(await push); } catch (e) { error(`push: ${e.message}`); }
    }
    active--;
    if (state && state.status === 'over') gamesFinished++;
    w.ws.close();
  }
}

// ---- the run --------------------------------------------------------------------

const t0 = performance.now();
const elapsed = () => (performance.now() - t0) / 1000;
let lastMoves = 0, lastHttp = 0;
function sample() {
  const kb = readRss();
  if (kb !== null) rss.push([Math.round(elapsed()), kb]);
  const h = httpMs.summary(lastHttp);
  console.error(`${elapsed().toFixed(0).padStart(4)} s: ${active} games, ${moves} moves ` +
                `(${((moves - lastMoves) / (SAMPLE_MS / 1000)).toFixed(0)}/s), http p50 ${h.p50.toFixed(1)} ` +
                `p99 ${h.p99.toFixed(1)} ms, ${errorCount()} errors` + (kb !== null ? `, server ${(kb / 1024).toFixed(0)} MB` : ''));
  lastMoves = moves;
  lastHttp = httpMs.n;
}

const players = [];
for (let i = 0; i < opt.games; i++) players.push(player((opt.ramp * 1000 * i) / opt.games));
const sampler = setInterval(sample, SAMPLE_MS);
const startKb = readRss();
if (startKb !== null) rss.push([0, startKb]);
await sleep(opt.seconds * 1000);
stopping = true;
clearInterval(sampler);
await Promise.all(players);
agent.destroy();
sample();

const fmt = (s) => `p50 ${s.p50.toFixed(1)}  p90 ${s.p90.toFixed(1)}  p99 ${s.p99.toFixed(1)}  max ${s.max.toFixed(1)} ms`;
const summary = {
  games: opt.games, seconds: Math.round(elapsed()), think_ms: opt.think, moves,
  moves_per_second: Number((moves / elapsed()).toFixed(1)), games_opened: gamesOpened,
  games_finished: gamesFinished, http_ms: httpMs.summary(), push_ms: pushMs.summary(),
  errors: Object.fromEntries(errors), error_count: errorCount(), rss_kb: rss,
};
console.log(`games ${opt.games} at once (${gamesOpened} opened, ${gamesFinished} finished), ` +
            `${summary.seconds} s, ${moves} moves (${summary.moves_per_second}/s), think ${opt.think.join('-')} ms`);
console.log(`move round trip, http: ${fmt(summary.http_ms)}`);
console.log(`move round trip, push: ${fmt(summary.push_ms)}`);
console.log(`errors: ${summary.error_count}` + (errors.size ? ` ${JSON.stringify(summary.errors)}` : ''));
if (rss.length) {
  console.log(`server VmRSS: start ${(rss[0][1] / 1024).toFixed(1)} MB, peak ${(Math.max(...rss.map((r) => r[1])) / 1024).toFixed(1)} MB, ` +
              `end ${(rss[rss.length - 1][1] / 1024).toFixed(1)} MB`);
}
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(summary, null, 1) + '\n');
if (logFd !== null) fs.closeSync(logFd);
process.exit(summary.error_count === 0 ? 0 : 1);

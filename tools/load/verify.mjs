#!/usr/bin/env node
// SPDX-License-Identifier: MIT
//
// verify.mjs - checks a server against the log of a load run (load.mjs
// --log): every acknowledged move of every game is in GET /api/games/{id}
// at its ply, and every game still playing accepts one more legal move
// from its token.  The crash test runs it on a server restarted after a
// kill -9 in the middle of the load.
//   node tools/load/verify.mjs --url URL --log FILE
// Prints one line of counts; exit 0 when all holds, 1 with each failure
// named, 2 for bad usage.

import fs from 'node:fs';

let url = 'http://127.0.0.1:8080', log = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  if (argv[i] === '--url' && argv[i + 1]) url = argv[i + 1].replace(/\/$/, '');
  else if (argv[i] === '--log' && argv[i + 1]) log = argv[i + 1];
  else { console.error('usage: node tools/load/verify.mjs --url URL --log FILE'); process.exit(2); }
}
if (!log) { console.error('verify: --log FILE is needed'); process.exit(2); }

// The log, game by game: its token and its acknowledged moves by ply.
const games = new Map();
for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
  if (!line) continue;
  const a = JSON.parse(line);
  if (!games.has(a.game)) games.set(a.game, { token: a.token, acked: new Map() });
  if (a.ply > 0) games.get(a.game).acked.set(a.ply, a.move);
}

const failures = [];
let acked = 0, movedOn = 0, over = 0;
for (const [id, g] of games) {
  const res = await fetch(`${url}/api/games/${id}`);
  if (res.status !== 200) { failures.push(`${id}: GET answered ${res.status}`); continue; }
  const state = await res.json();
  for (const [ply, move] of g.acked) {
    acked++;
    if (state.moves[ply - 1] !== move)
      failures.push(`${id}: ply ${ply} was acknowledged as ${move}, the server has ${state.moves[ply - 1] ?? 'nothing'}`);
  }
  if (state.status !== 'playing') { over++; continue; }
  const move = state.legal[0].notation;
  const next = await fetch(`${url}/api/games/${id}/moves`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ move, token: g.token }),
  });
  const after = await next.json();
  if (next.status !== 200 || after.ply !== state.ply + 1)
    failures.push(`${id}: the move ${move} after ply ${state.ply} was answered ${next.status} ${after.error ?? ''}`);
  else movedOn++;
}
console.log(`verify: ${games.size} games, ${acked} acknowledged moves checked, ${movedOn} games moved on, ` +
            `${over} over, ${failures.length} failures`);
for (const f of failures.slice(0, 20)) console.log(`  ${f}`);
process.exit(failures.length === 0 && games.size > 0 ? 0 : 1);

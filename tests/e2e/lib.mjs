// SPDX-License-Identifier: MIT
// lib.mjs - what the browser tests share: a `damier serve` of their own on
// a free port with a fresh database (started, killed, restarted), Debian's
// chromium through playwright-core, and the few acts of a player: start a
// game with the form, click squares, wait for the other side.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const BIN = process.env.DAMIER_BIN || path.resolve('../../build/damier');
export const SHOTS = process.env.DAMIER_SCREENSHOTS || '';

// Server: one `damier serve`. start() reads the address it prints
// ("Damier is at http://127.0.0.1:PORT/"); kill() is a SIGKILL; start()
// again comes back on the same port and database.
export class Server {
  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'damier-e2e-'));
    this.db = path.join(this.dir, 'games.db');
    this.listen = '127.0.0.1:0';
  }

  start() {
    return new Promise((resolve, reject) => {
      const p = spawn(BIN, ['serve', '--listen', this.listen, '--db', this.db], { stdio: ['ignore', 'pipe', 'pipe'] });
      this.proc = p;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`damier serve printed no address in 10 s: ${out}`)), 10000);
      const read = (chunk) => {
        out += chunk;
        const m = /(https?:\/\/[^\s/]+)\/?/.exec(out);
        if (m && !this.url) {
          this.url = m[1];
          this.listen = new URL(this.url).host;
        }
        if (m) {
          clearTimeout(timer);
          p.stdout.off('data', read);
          p.stderr.off('data', read);
          p.stdout.resume();
          p.stderr.resume();
          resolve(this.url);
        }
      };
      p.stdout.setEncoding('utf8');
      p.stderr.setEncoding('utf8');
      p.stdout.on('data', read);
      p.stderr.on('data', read);
      p.on('exit', (code) => { clearTimeout(timer); if (!this.url) reject(new Error(`damier serve exited ${code}: ${out}`)); });
    });
  }

  async kill() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const gone = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGKILL');
    await gone;
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null) {
      const gone = new Promise((r) => this.proc.once('exit', r));
      this.proc.kill('SIGTERM');
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(t);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// page(browser, opts): a new page that fails the test on a script error.
export async function page(browser, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, ...opts });
  const p = await ctx.newPage();
  p.errors = [];
  p.on('pageerror', (e) => p.errors.push(process.env.DAMIER_E2E_STACK ? e.stack : e.message));
  p.on('console', (m) => { if (m.type() === 'error') p.errors.push(m.text()); });
  p.setDefaultTimeout(15000);
  return p;
}

export async function shot(p, name) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

// newGame(p, url, opts): fills the new-game form and starts; resolves on
// the game page. opts: variant, side, opponent (computer/friend/local),
// level, clock.
export async function newGame(p, url, opts = {}) {
  await p.goto(`${url}/`);
  await p.waitForSelector('#home:not([hidden])');
  if (opts.variant) await p.selectOption('#ng-variant', opts.variant);
  await p.check(`input[name=side][value=${opts.side || 'white'}]`);
  await p.check(`input[name=opponent][value=${opts.opponent || 'computer'}]`);
  if (opts.level) await p.selectOption('#ng-level', String(opts.level));
  await p.fill('#ng-clock', opts.clock || '');
  if (opts.shot) await shot(p, opts.shot);
  await p.click('#ng-start');
  await p.waitForURL(/\/game\//);
  await waitState(p);
}

export async function waitState(p) {
  await p.waitForFunction(() => window.damierGame && window.damierGame.state && document.querySelector('#board-wrap svg'));
}

export const state = (p) => p.evaluate(() => window.damierGame.state);

export const clickSquare = (p, sq) => p.click(`#board-wrap .cell-hit[data-square="${sq}"]`);

// myTurn(p): waits until the page lets this player move, or the game ends.
export async function myTurn(p, timeout = 20000) {
  await p.waitForFunction(() => {
    const g = window.damierGame;
    return g.state.status === 'over' || (g.canMove() && !g.board.anim);
  }, null, { timeout });
  return state(p);
}

// playByClicks(p, pick): plays one legal move (pick(legal) chooses; the
// first by default) with clicks: the piece, then its final square, then
// route squares while the page asks for them. Resolves with the move once
// the page has it.
export async function playByClicks(p, pick = (l) => l[0]) {
  const st = await state(p);
  const m = pick(st.legal);
  await clickSquare(p, m.from);
  await clickSquare(p, m.to);
  for (const sq of m.path.slice(1, -1)) {
    const played = await p.evaluate((ply) => window.damierGame.state.ply > ply, st.ply);
    if (played) break;
    const asked = await p.$(`#board-wrap .mark-via`);
    if (!asked) break;
    await clickSquare(p, sq);
  }
  await p.waitForFunction((ply) => window.damierGame.state.ply > ply, st.ply);
  return m;
}

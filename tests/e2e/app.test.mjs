// SPDX-License-Identifier: MIT
// app.test.mjs - the web app driven as a person would, with clicks and keys
// in headless chromium, against a `damier serve` of its own: games against
// the computer on three boards, resigned, and three played to their end
// by the rules from an editor FEN (International, Russian, Turkish), a
// rematch, a friend game in two browsers (with its rematch), reload, a
// server killed and restarted mid-game, PDN out and in, a reviewed
// position, a capture entered by its final square with its reason shown,
// Frisian's king counters, read-only watching, and a phone-sized screen.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BIN, Server, clickSquare, launch, myTurn, newGame, page, playByClicks, shot, state, waitState } from './lib.mjs';

let server;
let url;
let browser;

before(async () => {
  server = new Server();
  url = await server.start();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// computerGame(variant, checks): plays until the computer has answered
// three times, then resigns (with its confirmation) and reads the end.
async function computerGame(variant, name, checks, extra) {
  const p = await page(browser);
  await newGame(p, url, { variant, level: 1, clock: '5+3', shot: name === 'game-10x10' ? 'new-game' : '' });
  if (checks) await checks(p);
  for (let i = 0; i < 3; i++) {
    const st = await myTurn(p);
    if (st.status === 'over') break;
    await playByClicks(p);
    await myTurn(p);
  }
  let st = await state(p);
  assert.ok(st.ply >= 2 || st.status === 'over', `the computer answered (ply ${st.ply})`);
  assert.match(await p.textContent('#last-move'), /Last move: \S+/);
  assert.ok((await p.$$('#move-list button')).length >= st.ply);
  await shot(p, name);
  if (extra && st.status === 'playing') await extra(p);
  st = await state(p);
  if (st.status === 'playing') {
    await p.click('#btn-resign');
    await p.waitForSelector('#resign-confirm:not([hidden])');
    await p.click('#resign-yes');
  }
  await p.waitForSelector('#ended:not([hidden])');
  st = await state(p);
  assert.equal(st.status, 'over');
  assert.match(await p.textContent('#ended-text'), /You (lost|won)|Draw/);
  assert.match(await p.textContent('#status'), /Game over/);
  assert.deepEqual(p.errors, []);
  await p.context().close();
}

test('international 10x10 against the computer, resigned at the end', async () => {
  await computerGame('international', 'game-10x10', async (p) => {
    assert.equal(await p.$$eval('#board-wrap .cell-hit', (l) => l.length), 50);
    assert.match(await p.textContent('#bar-bottom .clock'), /^5:00$/);
    assert.match(await p.textContent('#status'), /the clocks start once each side has moved/);
    assert.equal((await state(p)).clock.running, null);
    // a square's number is drawn on the numeric board
    assert.ok(await p.$$eval('#board-wrap text.coord', (l) => l.some((t) => t.textContent === '46')));
  }, async (p) => {
    await p.click('#btn-hint');
    await p.waitForFunction(() => /^Hint: \S+/.test(document.getElementById('analysis').textContent));
    assert.ok(await p.$('#board-wrap .mark-hint'), 'the hint is marked on the board');
    await p.click('#btn-analyse');
    await p.waitForFunction(() => /^Score [-+]?\d/.test(document.getElementById('analysis').textContent));
    const before = (await state(p)).ply;
    await p.click('#btn-takeback');
    await p.waitForFunction((n) => window.damierGame.state.ply < n, before);
    await myTurn(p);
    await p.click('#btn-flip');
    assert.match(await p.getAttribute('#board-wrap svg', 'aria-label'), /Black at the bottom/);
  });
});

test('russian 8x8 algebraic against the computer, coordinates a-h and 1-8', async () => {
  await computerGame('russian', 'game-8x8', async (p) => {
    assert.equal(await p.$$eval('#board-wrap .cell-hit', (l) => l.length), 32);
    const labels = await p.$$eval('#board-wrap text.coord-out', (l) => l.map((t) => t.textContent).sort().join(''));
    assert.equal(labels, '12345678abcdefgh');
  });
});

test('turkish on the full board against the computer', async () => {
  await computerGame('turkish', 'game-turkish', async (p) => {
    assert.equal(await p.$$eval('#board-wrap .cell-hit', (l) => l.length), 64);
  });
});

// playedToTheEnd(variant, fen, rest): a game against the computer from a
// position near the end, set up in the board editor by its FEN (pasted),
// played by clicks until the rules end it (no resignation, no agreement):
// Black, the computer, must step into a capture that takes its last man.
async function playedToTheEnd(variant, fen, rest) {
  const p = await page(browser);
  await p.goto(`${url}/#editor`);
  await p.waitForSelector('#editor:not([hidden])');
  await p.selectOption('#ed-variant', variant);
  await p.fill('#ed-fen', fen);
  await p.press('#ed-fen', 'Tab');
  await p.selectOption('#ed-opponent', 'computer');
  await p.selectOption('#ed-as', 'white');
  await p.click('#ed-play');
  await p.waitForURL(/\/game\//);
  await waitState(p);
  let st = await state(p);
  assert.equal(st.start, fen);
  for (let i = 0; i < 10 && st.status === 'playing'; i++) {
    st = await myTurn(p);
    if (st.status === 'playing') await playByClicks(p);
    st = await state(p);
  }
  await p.waitForSelector('#ended:not([hidden])');
  st = await state(p);
  assert.equal(st.status, 'over');
  assert.equal(st.ply, 2, 'the computer moved, then White took its last man');
  assert.match(st.reason, /^Black /);
  assert.match(await p.textContent('#ended-text'), new RegExp(`^You won \\(${st.result.replace('/', '\\/')}\\): Black `));
  assert.match(await p.textContent('#status'), /^Game over: /);
  if (rest) await rest(p, st);
  assert.deepEqual(p.errors, []);
  await p.context().close();
}

test('international to the end against the computer, then a rematch and my games', async () => {
  await playedToTheEnd('international', 'B:W41,42:B32', async (p, st) => {
    await p.click('#rematch');
    await p.waitForURL((u) => !u.pathname.endsWith(st.id));
    await waitState(p);
    const again = await state(p);
    assert.equal(again.you, 'black', 'the sides change');
    assert.equal(again.players.white.type, 'computer');
    assert.equal(again.variant, 'international');
    await p.goto(`${url}/`);
    await p.waitForSelector('#home:not([hidden])');
    for (const id of [st.id, again.id]) assert.ok(await p.$(`#my-games a[href="/game/${id}"]`), `my games lists ${id}`);
  });
});

test('russian to the end against the computer', async () => {
  await playedToTheEnd('russian', 'B:Wb2,f2:Bd4');
});

test('turkish to the end against the computer', async () => {
  await playedToTheEnd('turkish', 'B:Wd2,b4,f4:Bd4');
});

test('a friend game in two browsers: invite link, moves both ways, a takeback granted, a premove, a draw agreed', async () => {
  const a = await page(browser);
  await newGame(a, url, { variant: 'russian', opponent: 'friend' });
  const link = await a.inputValue('#invite-url');
  assert.match(link, /\/join\//);
  const b = await page(browser);
  await b.goto(link);
  await b.waitForURL(/\/game\//);
  await waitState(b);
  assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname);
  assert.match(await b.textContent('#status'), /Waiting for White/);
  const m1 = await playByClicks(a);
  await b.waitForFunction(() => window.damierGame.state.ply === 1);
  assert.match(await b.textContent('#last-move'), new RegExp(m1.notation));
  await myTurn(b);
  await playByClicks(b);
  await a.waitForFunction(() => window.damierGame.state.ply === 2);
  // a third browser without the token watches
  const w = await page(browser);
  await w.goto(a.url());
  await waitState(w);
  assert.match(await w.textContent('#status'), /watching/);
  assert.equal(await w.isVisible('#move-form'), false);
  // a takeback asked of the friend, and granted
  await b.click('#btn-takeback');
  await a.waitForSelector('#offer:not([hidden])');
  assert.match(await a.textContent('#offer-text'), /Black asks to take back/);
  await a.click('#offer-accept');
  await b.waitForFunction(() => window.damierGame.state.ply === 1);
  // White queues a premove (a move legal after Black's, found by damier
  // moves), Black moves, and the premove is played at once
  const bst = await myTurn(b);
  const mB = bst.legal[0];
  const after = JSON.parse(execFileSync(BIN, ['moves', '--json', '--variant', 'russian', '--play', `${bst.moves[0]} ${mB.notation}`]).toString());
  const pre = after.moves.find((m) => after.moves.filter((x) => x.from === m.from && x.to === m.to).length === 1);
  await clickSquare(a, pre.from);
  await clickSquare(a, pre.to);
  assert.equal((await a.$$('#board-wrap .mark-pre')).length, 2, 'the premove is marked');
  await playByClicks(b, (l) => l.find((m) => m.notation === mB.notation));
  await a.waitForFunction(() => window.damierGame.state.ply === 3);
  assert.equal((await state(a)).moves[2], pre.notation);
  await b.waitForFunction(() => window.damierGame.state.ply === 3);
  await a.click('#btn-draw');
  await b.waitForSelector('#offer:not([hidden])');
  assert.match(await b.textContent('#offer-text'), /White offers a draw/);
  await b.click('#offer-accept');
  for (const p of [a, b, w]) {
    await p.waitForSelector('#ended:not([hidden])');
    assert.match(await p.textContent('#ended-text'), /Draw|1-1|1\/2/);
  }
  // a rematch: White asks, Black's page offers to join it, colours change
  await a.click('#rematch');
  await a.waitForURL((u) => u.pathname !== new URL(w.url()).pathname);
  await waitState(a);
  await b.waitForSelector('#rematch-offer:not([hidden])');
  assert.equal(await b.isVisible('#rematch'), false);
  assert.equal(await w.isVisible('#rematch-offer'), false, 'a spectator is not invited');
  await b.click('#rematch-join');
  await b.waitForURL((u) => u.pathname === new URL(a.url()).pathname);
  await waitState(b);
  assert.equal((await state(b)).you, 'white');
  assert.equal((await state(a)).you, 'black');
  for (const p of [a, b, w]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('keyboard entry, reload, and a server killed and restarted mid-game', async () => {
  const p = await page(browser);
  await newGame(p, url, { variant: 'international', opponent: 'local' });
  let st = await state(p);
  await p.fill('#move-input', st.legal[0].notation);
  await p.press('#move-input', 'Enter');
  await p.waitForFunction(() => window.damierGame.state.ply === 1);
  await myTurn(p);
  await playByClicks(p);
  await p.reload();
  await waitState(p);
  st = await state(p);
  assert.equal(st.ply, 2, 'the reloaded page has both moves');
  assert.equal((await p.$$('#move-list button')).length, 2);
  await server.kill();
  await p.waitForSelector('#g-conn:text("reconnecting")');
  await server.start();
  await p.waitForFunction(() => document.getElementById('g-conn').textContent === '', null, { timeout: 15000 });
  await myTurn(p);
  await playByClicks(p);
  st = await state(p);
  assert.equal(st.ply, 3, 'the game went on after the restart');
  // the arrow keys step back through the moves
  await p.click('#move-list button[data-ply="3"]');
  await p.keyboard.press('ArrowLeft');
  assert.equal(await p.evaluate(() => window.damierGame.viewPly), 2);
  await p.keyboard.press('End');
  assert.equal(await p.evaluate(() => window.damierGame.viewPly), null);
  // PDN out: the download and the text
  await p.click('#export summary');
  await p.waitForFunction(() => /1\./.test(document.getElementById('pdn-text').value));
  const pdnText = await p.inputValue('#pdn-text');
  for (const mv of st.moves) assert.ok(pdnText.includes(mv), `PDN has ${mv}`);
  const [dl] = await Promise.all([p.waitForEvent('download'), p.click('#pdn-download')]);
  assert.match(dl.suggestedFilename(), /\.pdn$/);
  assert.match(await p.inputValue('#fen-text'), /^[WB]:/);
  // PDN in: the same moves in a new game
  await p.goto(`${url}/#import`);
  await p.waitForSelector('#home:not([hidden])');
  await p.fill('#imp-pdn', pdnText);
  await p.selectOption('#imp-opponent', 'local');
  await p.click('#imp-start');
  await p.waitForURL(/\/game\//);
  await waitState(p);
  const imported = await state(p);
  assert.deepEqual(imported.moves, st.moves);
  // an earlier position this page never saw comes from the server (?ply=1)
  await p.click('#move-list button[data-ply="1"]');
  await p.waitForFunction(() => /^Showing the position after move 1 of 3/.test(document.getElementById('view-note').textContent));
  assert.match(await p.inputValue('#fen-text'), /^B:/);
  assert.equal(await p.$$eval('#board-wrap .piece', (l) => l.length), 40);
  assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load/.test(e)), []);
  await p.context().close();
});

test('a multi-capture entered by its final square', async () => {
  const p = await page(browser);
  await p.goto(`${url}/`);
  await p.waitForSelector('#home:not([hidden])');
  await p.fill('#imp-pdn', '[GameType "20"]\n[FEN "W:W32,45:B27,17,5"]\n*\n');
  await p.selectOption('#imp-opponent', 'local');
  await p.click('#imp-start');
  await p.waitForURL(/\/game\//);
  await waitState(p);
  assert.equal(await p.textContent('#must-capture'), 'A capture is compulsory: 32x12 takes the most pieces (2).');
  await shot(p, 'must-capture');
  await clickSquare(p, '32');
  assert.ok(await p.$('#board-wrap .mark-dest'), 'the destination is shown');
  await clickSquare(p, '12');
  await p.waitForFunction(() => window.damierGame.state.ply === 1);
  const st = await state(p);
  assert.match(st.moves[0], /^32x12$|^32x21x12$/);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('a phone-sized screen shows the whole board', async () => {
  const p = await page(browser, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });
  await newGame(p, url, { variant: 'international', opponent: 'local' });
  const box = await p.$eval('#board-wrap svg', (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: document.documentElement.scrollWidth };
  });
  assert.ok(box.left >= 0 && box.right <= 375, `board within the width: ${JSON.stringify(box)}`);
  assert.ok(box.top >= 0 && box.bottom <= 667, `board within the height: ${JSON.stringify(box)}`);
  assert.ok(box.w <= 375, 'no sideways scrolling');
  await shot(p, 'phone');
  // a tap-tap move with touch
  const st = await state(p);
  const m = st.legal[0];
  await p.tap(`#board-wrap .cell-hit[data-square="${m.from}"]`);
  await p.tap(`#board-wrap .cell-hit[data-square="${m.to}"]`);
  await p.waitForFunction(() => window.damierGame.state.ply === 1);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('the board editor: a position set up by clicks, then played', async () => {
  const p = await page(browser);
  await p.goto(`${url}/#editor`);
  await p.waitForSelector('#editor:not([hidden])');
  await p.selectOption('#ed-variant', 'international');
  await p.click('#ed-clear');
  await p.check('input[name=ed-piece][value=white-man]');
  await p.click('#ed-board .cell-hit[data-square="32"]');
  await p.check('input[name=ed-piece][value=black-man]');
  await p.click('#ed-board .cell-hit[data-square="27"]');
  await p.check('input[name=ed-piece][value=black-king]');
  await p.click('#ed-board .cell-hit[data-square="5"]');
  assert.equal(await p.inputValue('#ed-fen'), 'W:W32:B27,K5');
  await p.selectOption('#ed-opponent', 'local');
  await p.click('#ed-play');
  await p.waitForURL(/\/game\//);
  await waitState(p);
  const st = await state(p);
  assert.deepEqual(st.legal.map((m) => m.notation), ['32x21']);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('frisian: the same-king counters shown on the board and in words', async () => {
  const p = await page(browser);
  await p.goto(`${url}/#editor`);
  await p.waitForSelector('#editor:not([hidden])');
  await p.selectOption('#ed-variant', 'frisian');
  await p.fill('#ed-fen', 'W:WK46,36:BK1,15');
  await p.press('#ed-fen', 'Tab');
  await p.selectOption('#ed-opponent', 'local');
  await p.click('#ed-play');
  await p.waitForURL(/\/game\//);
  await waitState(p);
  await playByClicks(p, (l) => l.find((m) => m.notation === '46-37'));
  await myTurn(p);
  await playByClicks(p, (l) => l.find((m) => m.notation === '1-7'));
  await myTurn(p);
  await playByClicks(p, (l) => l.find((m) => m.notation === '37-41'));
  await p.waitForFunction(() => /White's king on 41: 2 quiet moves in a row/.test(document.getElementById('counters').textContent));
  assert.match(await p.textContent('#counters'), /Black's king on 7: 1 quiet move in a row/);
  assert.deepEqual((await p.$$eval('#board-wrap .mark-count-text', (l) => l.map((t) => t.textContent))).sort(), ['1', '2']);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

// cursorTo(p, sq): the board's keyboard cursor moved onto sq with the arrows.
async function cursorTo(p, sq) {
  for (let i = 0; i < 24; i++) {
    const d = await p.evaluate((target) => {
      const b = window.damierGame.board;
      const at = b.cursor ? b.pos(b.cursor) : null;
      const to = b.pos(target);
      if (!at) return 'ArrowUp';
      const dx = to.x - at.x;
      const dy = to.y - at.y;
      if (Math.abs(dx) < 0.1 && Math.abs(dy) < 0.1) return null;
      if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 'ArrowRight' : 'ArrowLeft';
      return dy > 0 ? 'ArrowDown' : 'ArrowUp';
    }, sq);
    if (!d) return;
    await p.keyboard.press(d);
  }
  throw new Error(`the cursor did not reach ${sq}`);
}

test('alquerque points: a move dragged, then one entered with the keyboard cursor', async () => {
  const p = await page(browser);
  await newGame(p, url, { variant: 'alquerque', opponent: 'local' });
  assert.ok((await p.$$('#board-wrap line.grid-line')).length > 0, 'the grid lines are drawn');
  let st = await state(p);
  const m = st.legal[0];
  const centre = (sq) => p.$eval(`#board-wrap .cell-hit[data-square="${sq}"]`, (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  const a = await centre(m.from);
  const c = await centre(m.to);
  await p.mouse.move(a.x, a.y);
  await p.mouse.down();
  await p.mouse.move((a.x + c.x) / 2, (a.y + c.y) / 2, { steps: 3 });
  await p.mouse.move(c.x, c.y, { steps: 3 });
  await p.mouse.up();
  await p.waitForFunction(() => window.damierGame.state.ply === 1);
  st = await myTurn(p);
  const k = st.legal[0];
  await p.click('#btn-read');
  assert.match(await p.textContent('#cursor-say'), /^White: men .*Black: men .*Black to move\.$/);
  await p.focus('#board-wrap svg');
  await cursorTo(p, k.from);
  assert.match(await p.textContent('#cursor-say'), new RegExp(`^${k.from}: black man`));
  await p.keyboard.press('Enter');
  await cursorTo(p, k.to);
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => window.damierGame.state.ply === 2);
  assert.equal((await state(p)).moves[1], k.notation);
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

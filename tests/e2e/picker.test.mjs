// SPDX-License-Identifier: MIT
// picker.test.mjs - web/picker.mjs on its own (no browser): clicks narrowed
// to one of the server's legal moves, by final square or square by square.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Picker } from '../../web/picker.mjs';

const mv = (notation, path, captures = []) => ({ notation, from: path[0], to: path[path.length - 1], path, captures, promotes: false });

test('a quiet move: piece, then square', () => {
  const p = new Picker();
  p.reset([mv('32-28', ['32', '28']), mv('32-27', ['32', '27']), mv('33-29', ['33', '29'])]);
  assert.deepEqual(p.movable().sort(), ['32', '33']);
  assert.deepEqual(p.click('32'), { picked: true });
  assert.deepEqual(p.targets().dest.sort(), ['27', '28']);
  assert.equal(p.click('28').move.notation, '32-28');
});

test('a multi-capture by its final square when one route ends there', () => {
  const p = new Picker();
  p.reset([mv('32x12', ['32', '21', '12'], ['27', '17']), mv('32x23', ['32', '23'], ['28'])]);
  p.click('32');
  assert.equal(p.click('12').move.notation, '32x12');
});

test('two routes to one square: the route is asked square by square', () => {
  const p = new Picker();
  const a = mv('28x17x8', ['28', '17', '8'], ['22', '12']);
  const b = mv('28x19x8', ['28', '19', '8'], ['23', '13']);
  p.reset([a, b]);
  p.click('28');
  const r = p.click('8');
  assert.equal(r.move, undefined);
  assert.ok(r.ambiguous);
  assert.deepEqual(p.targets().via.sort(), ['17', '19']);
  assert.equal(p.click('19').move, b);
});

test('a square on the route picks the only move through it', () => {
  const p = new Picker();
  p.reset([mv('28x17x8', ['28', '17', '8'], ['22', '12']), mv('28x19x8', ['28', '19', '8'], ['23', '13'])]);
  p.click('28');
  assert.equal(p.click('17').move.notation, '28x17x8');
});

test('another piece, a second click, and an empty square', () => {
  const p = new Picker();
  p.reset([mv('32-28', ['32', '28']), mv('33-29', ['33', '29'])]);
  p.click('32');
  assert.deepEqual(p.click('33'), { picked: true });
  assert.equal(p.from, '33');
  assert.deepEqual(p.click('33'), { cleared: true });
  assert.equal(p.from, null);
  assert.deepEqual(p.click('45'), {});
});

test('a removal that stays on its square (Hawaiian opening)', () => {
  const p = new Picker();
  p.reset([{ notation: 'd4', from: 'd4', to: 'd4', path: ['d4'], captures: [], promotes: false }]);
  p.click('d4');
  assert.equal(p.click('d4').move.notation, 'd4');
});

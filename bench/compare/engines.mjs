// Times parse+roll+result of the JavaScript dice engines on the shared
// expressions, and prints one JSON object: {engine: {expression: ops/s}}.
// Usage: node engines.mjs [milliseconds per case]
import { DiceRoll } from '@dice-roller/rpg-dice-roller';
import bcdice from 'bcdice';

const { DynamicLoader } = bcdice;
const budget = Number(process.argv[2] || 1000);

// The shared expressions, as each engine writes them. bcdice has no "!"
// (its "U" roll explodes), counts successes with "B", and RuneQuest's
// 1D100<=45 goes through its RuneQuest game system.
const cases = [
  { id: '2d6+3', rdr: '2d6+3', bc: '2D6+3' },
  { id: '4d6kh3', rdr: '4d6kh3', bc: '4D6KH3' },
  { id: '1d100', rdr: '1d100', bc: '1D100' },
  { id: '10d6', rdr: '10d6', bc: '10D6' },
  { id: '4d6!', rdr: '4d6!', bc: '4U6[6]' },
  { id: '8d10>=7', rdr: '8d10>=7', bc: '8B10>=7' },
  { id: '1d100<=45', rdr: '1d100<=45', bc: '1D100<=45', bcSystem: 'RuneQuest' },
];

function time(fn) {
  const warm = process.hrtime.bigint() + 200000000n; // warm up the JIT for 200 ms
  while (process.hrtime.bigint() < warm) for (let i = 0; i < 50; i++) fn();
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(budget) * 1000000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

const loader = new DynamicLoader();
const systems = { DiceBot: await loader.dynamicLoad('DiceBot'), RuneQuest: await loader.dynamicLoad('RuneQuest') };
const out = { 'rpg-dice-roller': {}, bcdice: {}, versions: {} };
let sink = 0;
for (const c of cases) {
  out['rpg-dice-roller'][c.id] = time(() => { sink += new DiceRoll(c.rdr).total; });
  const sys = systems[c.bcSystem || 'DiceBot'];
  out.bcdice[c.id] = time(() => { const r = sys.eval(c.bc); sink += r ? r.text.length : 0; });
}
const req = (await import('node:module')).createRequire(import.meta.url);
out.versions['rpg-dice-roller'] = req('@dice-roller/rpg-dice-roller/package.json').version;
out.versions.bcdice = req('bcdice/package.json').version;
out.sink = sink;
console.log(JSON.stringify(out));

// Runs attnbook_core.js (the wasm core) on each lesson and compares its JSON with the native
// `attnbook compute` output already written to out/native/NAME.json (compare.sh does both).
// Usage: node compare.mjs DOCS_DIR LESSON.md...
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
const require = createRequire(import.meta.url);
// The build folder (scripts/wasm/build-all.sh's ROOT): the module, and out/ for the results.
const here = process.argv[2];

const [docs, ...lessons] = process.argv.slice(3);
const t0 = performance.now();
const createAttnbookCore = require(path.join(here, 'attnbook_core.js'));
const core = await createAttnbookCore();
const startupMs = performance.now() - t0;

function filesUnder(dir, prefix, out = {}) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name), rel = prefix + e.name;
    if (e.isDirectory()) filesUnder(p, rel + '/', out);
    else out[rel] = new Uint8Array(fs.readFileSync(p));
  }
  return out;
}
const files = fs.existsSync(path.join(docs, 'data')) ? filesUnder(path.join(docs, 'data'), 'data/') : {};

// Walks two JSON values together: the largest relative and absolute difference of numbers,
// and every place where they differ in anything but a number's value.
function compare(a, b, where, acc) {
  if (typeof a === 'number' && typeof b === 'number') {
    // The gradient check's report (gradcheck.*: its worst entry, relative errors of ~1e-10)
    // measures rounding itself: counted apart. So are values that are zero but for rounding
    // (|x| < 1e-9 on both sides: e.g. the gradient of b_K, 0 in exact arithmetic).
    if (where.includes('gradcheck')) {
      acc.gradcheck++;
      if (a !== b) acc.gradcheckDiffering++;
      return;
    }
    if (Math.max(Math.abs(a), Math.abs(b)) < 1e-9) {
      acc.tiny++;
      acc.tinyMaxAbs = Math.max(acc.tinyMaxAbs, Math.abs(a - b));
      return;
    }
    acc.numbers++;
    const abs = Math.abs(a - b);
    const scale = Math.max(Math.abs(a), Math.abs(b));
    const rel = abs === 0 ? 0 : abs / scale;
    if (abs !== 0) acc.differing++;
    if (scale >= 1e-6 && rel > acc.maxRel6) acc.maxRel6 = rel;
    if (rel > acc.maxRel) { acc.maxRel = rel; acc.maxRelAt = `${where}: ${b} (native) vs ${a} (wasm)`; }
    if (abs > acc.maxAbs) acc.maxAbs = abs;
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) acc.structural.push(`${where}: length ${a.length} vs ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) compare(a[i], b[i], `${where}[${i}]`, acc);
    return;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.join() !== kb.join()) acc.structural.push(`${where}: keys differ`);
    for (const k of ka) if (k in b) compare(a[k], b[k], `${where}.${k}`, acc);
    return;
  }
  if (a !== b && where.includes('gradcheck')) { acc.gradcheckDiffering++; return; }
  if (a !== b) acc.structural.push(`${where}: ${JSON.stringify(b)} (native) vs ${JSON.stringify(a)} (wasm)`);
}

const rows = [];
for (const lesson of lessons) {
  const name = path.basename(lesson, '.md');
  const markdown = fs.readFileSync(path.join(docs, lesson), 'utf8');
  const t = performance.now();
  const r = core.compute(markdown, path.join(docs, lesson), files);
  const wall = performance.now() - t;
  // Again: the first call of a lesson also pays for compiling its code paths to optimised
  // machine code (V8 tiers wasm up as it runs); the second is what a reader's next edit costs.
  const t2 = performance.now();
  const again = core.compute(markdown, path.join(docs, lesson), files);
  const warm = performance.now() - t2;
  if (again.stdout !== r.stdout) console.log(`${lesson}: a second compute printed other JSON`);
  fs.mkdirSync(path.join(here, 'out/wasm'), { recursive: true });
  fs.writeFileSync(path.join(here, 'out/wasm', name + '.json'), r.stdout);
  fs.writeFileSync(path.join(here, 'out/wasm', name + '.err'), r.stderr);
  const nativeText = fs.readFileSync(path.join(here, 'out/native', name + '.json'), 'utf8');
  const nativeMs = Number(fs.readFileSync(path.join(here, 'out/native', name + '.ms'), 'utf8'));
  const acc = { maxRel6: 0, numbers: 0, differing: 0, maxRel: 0, maxAbs: 0, maxRelAt: '', structural: [], gradcheck: 0, gradcheckDiffering: 0, tiny: 0, tinyMaxAbs: 0 };
  if (r.exitCode === 0 && nativeText.length) compare(JSON.parse(r.stdout), JSON.parse(nativeText), '$', acc);
  rows.push({ lesson: name, exit: r.exitCode, identical: r.stdout === nativeText,
              bytes: r.stdout.length, numbers: acc.numbers, differing: acc.differing,
              maxRel: acc.maxRel, maxRel6: acc.maxRel6, maxAbs: acc.maxAbs, structural: acc.structural.length,
              gradcheck: `${acc.gradcheckDiffering}/${acc.gradcheck}`, tiny: `${acc.tiny} (max abs ${acc.tinyMaxAbs.toExponential(1)})`,
              wasmMs: Math.round(wall), warmMs: Math.round(warm), coreMs: Math.round(r.millis), nativeMs,
              maxRelAt: acc.maxRelAt, firstStructural: acc.structural.slice(0, 3), stderr: r.stderr.slice(0, 300) });
}
console.log(`module startup (instantiate): ${Math.round(startupMs)} ms`);
console.log('| lesson | wasm exit | byte-identical | numbers (abs >= 1e-9) | differing | max rel diff | max rel diff, abs >= 1e-6 | max abs diff | other differences | gradcheck fields differing | near-zero numbers | wasm ms, 1st call | wasm ms, 2nd call | native ms (process) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.lesson} | ${r.exit} | ${r.identical} | ${r.numbers} | ${r.differing} | ${r.maxRel.toExponential(2)} | ${r.maxRel6.toExponential(2)} | ${r.maxAbs.toExponential(2)} | ${r.structural} | ${r.gradcheck} | ${r.tiny} | ${r.wasmMs} | ${r.warmMs} | ${r.nativeMs} |`);
for (const r of rows) {
  if (r.maxRelAt) console.log(`${r.lesson}: largest relative difference at ${r.maxRelAt}`);
  for (const s of r.firstStructural) console.log(`${r.lesson}: ${s}`);
  if (r.stderr) console.log(`${r.lesson} stderr: ${r.stderr}`);
}
fs.writeFileSync(path.join(here, 'out/compare.json'), JSON.stringify(rows, null, 1));

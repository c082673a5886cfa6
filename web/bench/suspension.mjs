// How long the browser verifier's suspension check (web/src/verify/suspension.ts)
// takes on one settled draw of 2, 6 and 10 positions, in Node: every round
// after the deal recomputed (POCKET with its EXPRESS bound and, when the bound
// lets it, the full EXPRESS walk; FLOP; TURN), with the default pause that
// yields to the event loop every 30 ms as the Verify page does. The deals are
// the random ones of test/unit/testdata/chances.json, whose Go timings
// BenchmarkChancesOfADraw (domain/tote) measures.
//
//	cd web && node bench/suspension.mjs [runs]
import { readFileSync } from 'node:fs';
import { load } from '../test/unit/bundle.mjs';

const s = await load('verify/suspension.ts');
const fx = JSON.parse(readFileSync(new URL('../test/unit/testdata/chances.json', import.meta.url), 'utf8'));
const runs = Number(process.argv[2] ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`node ${process.version}, ${runs} runs per draw, median wall and CPU (user+system) time of checkSuspension`);
console.log('| positions | SUSPEND_AT | EXPRESS coupons listed | wall ms | cpu ms |');
console.log('|---|---|---|---|---|');
for (const f of fx.cases.filter((x) => x.name === 'random' && x.chances.length === 3)) {
  const r = { ...f, pools: [] };
  const wall = [];
  const cpu = [];
  for (let i = 0; i <= runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { problems } = await s.checkSuspension(r);
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    if (problems.length) throw new Error(problems.join('\n'));
    if (i > 0) { wall.push(t1 - t0); cpu.push((c1.user + c1.system) / 1000); } // the first run warms the JIT
  }
  const express = f.chances[0].chances.filter((c) => c.market === 'EXPRESS').length;
  console.log(`| ${f.positions} | ${f.suspendAt / 100} % | ${express} | ${median(wall).toFixed(0)} | ${median(cpu).toFixed(0)} |`);
}

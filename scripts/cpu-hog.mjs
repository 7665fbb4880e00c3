#!/usr/bin/env node
/**
 * `node scripts/cpu-hog.mjs [workers=2] [seconds=600]`: keeps `workers` CPU cores busy for at most
 * `seconds`, then stops by itself — to prove the suite green on a loaded machine:
 *   node scripts/cpu-hog.mjs 2 900 & npm test
 */
import { Worker } from 'node:worker_threads'

const workers = Number(process.argv[2] ?? 2)
const seconds = Number(process.argv[3] ?? 600)
if (!Number.isInteger(workers) || workers < 1 || workers > 64 || !(seconds > 0 && seconds <= 3600)) {
  console.error('usage: node scripts/cpu-hog.mjs [workers 1..64] [seconds 1..3600]')
  process.exit(2)
}
const until = Date.now() + seconds * 1000
const spin = `const { workerData } = require('node:worker_threads'); let x = 0; while (Date.now() < workerData) { x = (x + Math.sqrt(x + 1)) % 1e9 }`
for (let i = 0; i < workers; i++) new Worker(spin, { eval: true, workerData: until })
console.error(`cpu-hog: ${workers} busy worker(s) for ${seconds} s`)

/**
 * MCP Apps views (issue 17): the size of each playground plugin's self-contained view (HTML with
 * its script and styles inlined) — raw and gzip — and how much of it is React, measured against a
 * React-only page built the same way in the same run (a baseline, not a constant); plus the time
 * each view's build takes. Goal: book_flight's view ≤ 60 kB gzip without React, ≤ 110 kB with.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Rolldown } from 'vite'
import { buildAppView } from '../../packages/vite-plugin/src/view-build.ts'

const playground = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../playground')
const kB = (n: number) => (n / 1024).toFixed(1)

/** React and react-dom rendering one element: what every view carries before any of ours. */
async function reactBaseline(): Promise<number> {
  const dir = mkdtempSync(join(playground, 'node_modules/.tmp-bench-react-'))
  try {
    const entry = join(dir, 'entry.js')
    writeFileSync(
      entry,
      "import { createElement } from 'react'\nimport { createRoot } from 'react-dom/client'\ncreateRoot(document.getElementById('root')).render(createElement('p', null, 'x'))\n",
    )
    const output = (await build({
      configFile: false,
      root: playground,
      logLevel: 'silent',
      build: { write: false, minify: true, rolldownOptions: { input: entry, output: { codeSplitting: false } } },
    })) as Rolldown.RolldownOutput
    return gzipSync(output.output.find((o) => o.type === 'chunk')!.code).byteLength
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const react = await reactBaseline()
console.log(`React baseline (react + react-dom/client, minified): ${kB(react)} kB gzip`)
console.log('view            build ms   html kB   gzip kB   gzip without React')
for (const tool of ['book_flight', 'choose_color', 'plan_trip', 'reserve_table']) {
  const t0 = performance.now()
  const view = await buildAppView({ root: playground, tool, include: ['src/styles.css'] })
  const ms = performance.now() - t0
  const gzip = gzipSync(view.html).byteLength
  console.log(
    `${tool.padEnd(15)} ${ms.toFixed(0).padStart(8)} ${kB(Buffer.byteLength(view.html)).padStart(9)} ${kB(gzip).padStart(9)}   ${kB(gzip - react).padStart(6)}` +
      (tool === 'book_flight' ? `   (goal ≤ 60 without React, ≤ 110 with)` : ''),
  )
}

import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
for (let i = 0; i < 4; i++) {
  rmSync('node_modules/.vite/mcp-bridge-build.json', { force: true })
  const t0 = performance.now()
  const r = spawnSync(process.execPath, ['../node_modules/vite/bin/vite.js', 'build', '--configLoader', 'runner', '--outDir', '.tmp-out', '--emptyOutDir', '--logLevel', process.argv[2] ?? 'error'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  console.log((performance.now() - t0).toFixed(0), r.status, (r.stdout.match(/built in \S+/) ?? [''])[0])
}

import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
rmSync('node_modules/.vite/mcp-bridge-build.json', { force: true })
const t0 = performance.now()
const c = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '../node_modules/vite/bin/vite.js', 'build', '--configLoader', 'runner', '--outDir', '.tmp-out', '--emptyOutDir', '--logLevel', 'error'], { env: { ...process.env, NO_COLOR: '1' } })
c.stderr.on('data', d => process.stdout.write(`${(performance.now()-t0).toFixed(0)} ${d}`))
c.on('exit', () => console.log('exit', (performance.now() - t0).toFixed(0)))

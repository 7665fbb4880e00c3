// Resume-anywhere, shown: two instances of the built playground sharing one Redis, behind a
// round-robin proxy. Every request goes to the other instance than the one before, so a booking's
// questions are asked by one process and answered on the other — and it completes, with one ticket.
//
//   npm run start:cluster            (builds, starts redis-server on a free port, A, B and the proxy;
//                                    Redis keeps an append-only file in data/redis/, so waiting calls
//                                    survive a restart of Redis too)
//   REDIS_URL=redis://… npm run start:cluster   (uses that Redis instead)
//
// PORT (default 5180) is the proxy's; each response says which instance served it (x-served-by).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createServer, request as forward } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const playground = fileURLToPath(new URL('../', import.meta.url))
const children = []
let stopping = false

function fail(message) {
  console.error(`start:cluster: ${message}`)
  stop(1)
}

function stop(code = 0) {
  if (stopping) return
  stopping = true
  for (const child of children) child.kill('SIGTERM')
  setTimeout(() => process.exit(code), 300).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Start a child, prefix its output (unless `quiet`: shown only if it fails), resolve when it prints `ready`. */
function start(name, command, args, env, ready, quiet = false) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: playground, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(child)
    let seen = ''
    const timer = setTimeout(() => fail(`${name} did not start within 30 s:\n${seen.slice(-2000)}`), 30_000)
    const onData = (chunk) => {
      const text = chunk.toString()
      seen += text
      if (!quiet) for (const line of text.split('\n')) if (line.trim()) console.log(`[${name}] ${line}`)
      if (seen.includes(ready)) {
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('error', (error) => fail(`${name} could not start: ${error.message}`))
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (!stopping) fail(`${name} exited (code ${code}); stopping the cluster.${quiet ? `\n${seen.slice(-2000)}` : ''}`)
    })
  })
}

if (!existsSync(new URL('../dist/server/index.js', import.meta.url))) fail('no build found: run `npm run build` first (npm run start:cluster does).')

let redisUrl = process.env.REDIS_URL
if (!redisUrl) {
  if (spawnSync('redis-server', ['--version']).error) {
    fail('redis-server is not installed. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), or set REDIS_URL to a Redis you have.')
  }
  const port = await freePort()
  // Persisting as the README asks: an append-only file, synced every second.
  const dir = join(process.env.MCP_BRIDGE_DATA ?? join(playground, 'data'), 'redis')
  mkdirSync(dir, { recursive: true })
  await start(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'],
    {},
    'Ready to accept connections',
    true,
  )
  redisUrl = `redis://127.0.0.1:${port}`
}

const instances = []
for (const name of ['A', 'B']) {
  const port = await freePort()
  await start(name, process.execPath, ['dist/server/index.js'], { PORT: String(port), REDIS_URL: redisUrl }, `127.0.0.1:${port}`)
  instances.push({ name, port })
}

// Chat requests take turns between the instances (so consecutive turns of one conversation land on
// different ones); page assets, which any instance serves alike, go to A and do not shift the turn.
let next = 0
const proxy = createServer((req, res) => {
  const chat = (req.url ?? '').startsWith('/api/chat')
  const target = chat ? instances[next++ % instances.length] : instances[0]
  if (chat) console.log(`[proxy] ${req.method} ${req.url} → ${target.name}`)
  const upstream = forward({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': target.name })
    answer.pipe(res)
  })
  upstream.once('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
    res.end(`instance ${target.name} is unreachable: ${error.message}`)
  })
  // A browser that leaves cancels the instance's response too.
  res.once('close', () => upstream.destroy())
  req.pipe(upstream)
})
const port = Number(process.env.PORT ?? 5180)
proxy.once('error', (error) => fail(`the proxy cannot listen on 127.0.0.1:${port}: ${error.message} (set PORT)`))
proxy.listen(port, '127.0.0.1', () => {
  console.log(`mcp-bridge playground cluster: http://127.0.0.1:${port}/  (instances A :${instances[0].port}, B :${instances[1].port}, Redis ${redisUrl})`)
})

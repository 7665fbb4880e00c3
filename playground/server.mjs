// Serves the built playground under plain Node: the client from dist/, the chat at /api/chat.
// Run `npm run build` first, then `npm run serve` (PORT defaults to 4173).
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const dist = fileURLToPath(new URL('./dist/', import.meta.url))
if (!existsSync(join(dist, 'server/chat.js'))) {
  console.error('No build found: run `npm run build` in playground/ first.')
  process.exit(1)
}
const { chat, store, toNodeListener } = await import(new URL('./dist/server/chat.js', import.meta.url).href)
const api = toNodeListener(chat)
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json' }

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]
  if (path === '/api/chat') return void api(req, res)
  // Static files; anything unknown gets the app (client-side routing), never a file outside dist.
  const file = normalize(join(dist, path === '/' ? 'index.html' : path))
  const target = file.startsWith(dist) && !file.startsWith(join(dist, 'server')) && existsSync(file) && statSync(file).isFile() ? file : join(dist, 'index.html')
  res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' })
  createReadStream(target).pipe(res)
})
const port = Number(process.env.PORT ?? 4173)
server.listen(port, '127.0.0.1', () => console.log(`mcp-bridge playground (built): http://127.0.0.1:${port}/`))
// Stop on SIGTERM/SIGINT: waiting calls stay in the store (the next start resumes them); open
// connections (a browser's keep-alive, a streaming turn) are cut rather than waited for.
async function shutdown() {
  server.close()
  server.closeAllConnections()
  await chat.close().catch(() => {})
  await store.close().catch(() => {})
  process.exit(0)
}
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)

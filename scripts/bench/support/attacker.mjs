/**
 * Attackers of `attacks.bench.ts` that must run in a process of their own, as a real attacker
 * does: in the bench's process their work would take turns with the server's on one event loop,
 * and hide what they do to other clients. From 127.0.2.2; prints how the requests were answered.
 *
 *   node attacker.mjs big-turns <app url> <turns> <bytes>    turns of that size into one
 *     conversation, one after another, the next at once when one is refused
 *   node attacker.mjs tools-list <app url> <count> <at once> MCP tools/list (2026-07-28)
 */
import { Agent, request } from 'node:http'

const [mode, app, a = '40', b = '1000000'] = process.argv.slice(2)
const agent = new Agent({ keepAlive: true, maxSockets: 64 })
const answered = {}

function post(path, body, headers = {}) {
  return new Promise((resolve) => {
    const req = request(new URL(path, app), { method: 'POST', agent, localAddress: '127.0.2.2', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve('reset'))
    req.end(body)
  }).then((status) => (answered[status] = (answered[status] ?? 0) + 1))
}

if (mode === 'big-turns') {
  const conversation = { id: `attack-conversation-${Date.now()}`, secret: 'a'.repeat(43) }
  for (let turn = 0; turn < Number(a); turn++) {
    await post('/api/chat', JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: `${turn} ${'x'.repeat(Number(b))}` }] }], conversation }))
  }
} else if (mode === 'tools-list') {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'flood', version: '1' } }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })
  const headers = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }
  for (let sent = 0; sent < Number(a); sent += Number(b)) await Promise.all(Array.from({ length: Number(b) }, () => post('/mcp', body, headers)))
} else {
  throw new Error(`unknown attack ${mode}`)
}
agent.destroy()
console.log(JSON.stringify(answered))

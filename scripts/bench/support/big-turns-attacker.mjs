/**
 * The big-turns attacker of `attacks.bench.ts`, in a process of its own (as a real attacker is:
 * in the bench's own process its work would take turns with the server's on one event loop, and
 * hide what it does to other clients). `node big-turns-attacker.mjs <chat url> <turns> <bytes>`:
 * that many turns of that size into one conversation from 127.0.2.2, one after another, retrying
 * at once when refused. Prints how each was answered.
 */
import { request } from 'node:http'

const [url, turns = '40', bytes = '1000000'] = process.argv.slice(2)
const conversation = { id: `attack-conversation-${Date.now()}`, secret: 'a'.repeat(43) }
const answered = {}
for (let turn = 0; turn < Number(turns); turn++) {
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: `${turn} ${'x'.repeat(Number(bytes))}` }] }], conversation })
  const status = await new Promise((resolve) => {
    const req = request(url, { method: 'POST', localAddress: '127.0.2.2', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve('reset'))
    req.end(body)
  })
  answered[status] = (answered[status] ?? 0) + 1
}
console.log(JSON.stringify(answered))

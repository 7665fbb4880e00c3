/**
 * MCP server figures (issue 7): tool calls with one elicitation each, through official SDK
 * clients of both generations over the in-memory transport (the SDK's own framing and
 * validation included), and heap per call suspended between 2026-07-28 rounds.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { createMcpTool } from '@mcp-bridge/runtime'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { z } from 'zod'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)')

const confirm = createMcpTool('confirm')
  .parameters(z.object({ n: z.int() }))
  .elicits({ ok: { response: z.object({ ok: z.boolean() }), context: z.object({ n: z.int() }) } })
  .execute(function* ({ n }, ctx) {
    const r = yield* ctx.elicit('ok', { message: `Confirm ${n}?`, n })
    return r.action === 'accept' && r.content.ok ? `confirmed ${n}` : 'no'
  })

let server = createMcpServer({ name: 'bench', version: '1', tools: [confirm], maxSuspendedCallsPerClient: 100_000 })

async function connect(modern: boolean, manual = false): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  server.listen({ transport: serverSide })
  const client = new Client(
    { name: 'bench', version: '1' },
    { capabilities: { elicitation: { form: {} } }, ...(modern && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
  )
  if (!manual) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
  await client.connect(clientSide)
  return client
}

async function callsPerSecond(modern: boolean, total: number): Promise<number> {
  const client = await connect(modern)
  const start = performance.now()
  for (let n = 0; n < total; n++) {
    const result = await client.callTool({ name: 'confirm', arguments: { n } })
    if ((result.content as Array<{ text: string }>)[0]!.text !== `confirmed ${n}`) throw new Error(JSON.stringify(result))
  }
  const rate = total / ((performance.now() - start) / 1000)
  await client.close()
  return rate
}

async function heapPerSuspended(count: number): Promise<number> {
  server = createMcpServer({ name: 'bench', version: '1', tools: [confirm], maxSuspendedCalls: count, maxSuspendedCallsPerClient: count })
  const client = await connect(true, true)
  gc!()
  const before = process.memoryUsage().heapUsed
  for (let n = 0; n < count; n++) await client.callTool({ name: 'confirm', arguments: { n } }, { allowInputRequired: true })
  if (server.suspendedCalls < count) throw new Error(`only ${server.suspendedCalls} suspended`)
  gc!()
  const after = process.memoryUsage().heapUsed
  await server.close()
  await client.close()
  return (after - before) / count
}

for (const [label, modern] of [['2025-11-25', false], ['2026-07-28', true]] as const) {
  await callsPerSecond(modern, 100)
  const rates: number[] = []
  for (let i = 0; i < 3; i++) rates.push(await callsPerSecond(modern, 1_000))
  rates.sort((a, b) => a - b)
  console.log(
    `${label}: tool calls with one elicitation, median ${Math.round(rates[1]!).toLocaleString('en')} /s ` +
      `(3 runs of 1,000 sequential calls, in memory; ${(1000 / rates[1]!).toFixed(2)} ms per call)`,
  )
}
const perCall = await heapPerSuspended(2_000)
console.log(`heap per call suspended between 2026-07-28 rounds: ${(perCall / 1024).toFixed(1)} KB (2,000 suspended at once)`)

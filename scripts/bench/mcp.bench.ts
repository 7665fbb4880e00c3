/**
 * MCP server figures (issue 7): tool calls with one elicitation each, through official SDK
 * clients of both generations over the in-memory transport (the SDK's own framing and
 * validation included), and heap per call suspended between 2026-07-28 rounds. The peer: the
 * official SDK's own `McpServer` with the same tool written by hand (its write-once
 * `inputRequired` handler, which the SDK also serves to 2025-11-25 clients), measured in the same
 * run with the same clients, interleaved: the ratio is ours ÷ the SDK's.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { createMcpTool } from '@mcp-bridge/runtime'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { McpServer, acceptedContent, inputRequired } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
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

let server = createMcpServer({ name: 'bench', version: '1', tools: [confirm], limits: { maxCallsPerClient: 100_000 } })

/** The same tool on the SDK's `McpServer`: ask, and on the retry read the answer. */
function sdkServer(): McpServer {
  const sdk = new McpServer({ name: 'bench-sdk', version: '1' })
  const answer = z.object({ ok: z.boolean() })
  sdk.registerTool('confirm', { inputSchema: z.object({ n: z.int() }) }, async ({ n }, ctx) => {
    const content = acceptedContent(ctx.mcpReq.inputResponses, 'ok', answer)
    if (!content) return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: `Confirm ${n}?`, requestedSchema: answer }) } })
    return { content: [{ type: 'text', text: content.ok ? `confirmed ${n}` : 'no' }] }
  })
  return sdk
}

async function connect(modern: boolean, manual = false, peer: 'ours' | 'sdk' = 'ours'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  // Both through the SDK's own serving entry (it speaks both generations), as ours listens.
  if (peer === 'sdk') serveStdio(sdkServer, { transport: serverSide })
  else server.listen({ transport: serverSide })
  const client = new Client(
    { name: 'bench', version: '1' },
    { capabilities: { elicitation: { form: {} } }, ...(modern && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
  )
  if (!manual) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
  await client.connect(clientSide)
  return client
}

async function callsPerSecond(modern: boolean, total: number, peer: 'ours' | 'sdk' = 'ours'): Promise<number> {
  const client = await connect(modern, false, peer)
  const start = performance.now()
  for (let n = 0; n < total; n++) {
    const result = await client.callTool({ name: 'confirm', arguments: { n } })
    if ((result.content as Array<{ text: string }>)[0]!.text !== `confirmed ${n}`) throw new Error(JSON.stringify(result))
  }
  const rate = total / ((performance.now() - start) / 1000)
  await client.close()
  return rate
}

/** One client: the total is twice `count`, as one client may hold only part of a full server (70 %). */
async function heapPerSuspended(count: number): Promise<number> {
  server = createMcpServer({ name: 'bench', version: '1', tools: [confirm], limits: { maxActiveCalls: 2 * count, maxCallsPerClient: count, warmCalls: count } })
  const client = await connect(true, true)
  gc!()
  const before = process.memoryUsage().heapUsed
  for (let n = 0; n < count; n++) await client.callTool({ name: 'confirm', arguments: { n } }, { allowInputRequired: true })
  if (server.suspendedCalls < count) throw new Error(`only ${server.suspendedCalls} of ${count} calls stayed suspended in memory`)
  gc!()
  const after = process.memoryUsage().heapUsed
  await server.close()
  await client.close()
  return (after - before) / count
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const [label, modern] of [
  ['2025-11-25', false],
  ['2026-07-28', true],
] as const) {
  await callsPerSecond(modern, 100)
  await callsPerSecond(modern, 100, 'sdk')
  const rates: number[] = []
  const sdkRates: number[] = []
  for (let i = 0; i < 5; i++) {
    rates.push(await callsPerSecond(modern, 1_000))
    sdkRates.push(await callsPerSecond(modern, 1_000, 'sdk'))
  }
  console.log(
    `${label}: tool calls with one elicitation, median ${Math.round(median(rates)).toLocaleString('en')} /s ` +
      `(5 runs of 1,000 sequential calls, in memory; ${(1000 / median(rates)).toFixed(2)} ms per call); ` +
      `the SDK's McpServer with the same tool, interleaved: ${Math.round(median(sdkRates)).toLocaleString('en')} /s — ${(median(rates) / median(sdkRates)).toFixed(2)}× of it (target ≥ 1.0×)`,
  )
}
const perCall = await heapPerSuspended(2_000)
console.log(`heap per call suspended between 2026-07-28 rounds: ${(perCall / 1024).toFixed(1)} KB (2,000 suspended at once)`)

/**
 * A 2026-07-28 client that gives up between rounds sends nothing — the protocol has no message for
 * it, and the official v2 client sends none when its call is aborted while the person answers —
 * so its call is held for `limits.roundHoldMs` (default 10 minutes), not the 30 minutes a person may take
 * (`limits.idleTimeoutMs`). A 2025-11-25 request stays open while the person answers: its cancellation
 * ends the call at once, and it waits `limits.idleTimeoutMs` (issue 28 item 4).
 */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpServer, type BridgeMcpServer } from '../../src/mcp.ts'
import { createMemoryStore } from '../../src/server.ts'
import { createTestClock, type TestClock } from '../../src/testing.ts'
import { waitingTool } from '../fixtures/mcp-tools.ts'
import { connectClient, FULL_CAPABILITIES } from './support/mcp-clients.ts'
import { until } from '../support/until.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

type Round = CallToolResult | { resultType: 'input_required'; inputRequests: Record<string, unknown>; requestState: string }

function serve(clock: TestClock, tool: ReturnType<typeof waitingTool>['tool'], limits: { roundHoldMs?: number; idleTimeoutMs?: number; warmCalls?: number } = {}): BridgeMcpServer {
  const server = createMcpServer({ name: 's', version: '1', tools: [tool], clock, store: createMemoryStore({ clock }), limits })
  open.push(server)
  return server
}

/** A 2026-07-28 client that does its rounds by hand, so it can stop between them. */
async function modernClient(server: BridgeMcpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = server.listen({ transport: serverSide })
  const client = new Client({ name: 'manual', version: '1' }, { capabilities: FULL_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(clientSide)
  open.unshift({ close: async () => (await client.close(), await handle.close()) })
  return (params: Record<string, unknown> = {}) => client.callTool({ name: 'wait_for_user', arguments: {}, ...params }, { allowInputRequired: true }) as Promise<Round>
}

describe('how long a call waits for its client', () => {
  it('a 2026-07-28 call whose client never comes back ends after roundHoldMs: its finally runs, its place is free, a late round is told why', async () => {
    const clock = createTestClock()
    const waiting = waitingTool()
    const server = serve(clock, waiting.tool, { roundHoldMs: 60_000 })
    const call = await modernClient(server)
    const first = (await call()) as Extract<Round, { resultType: 'input_required' }>
    expect(first.resultType).toBe('input_required')
    expect(server.suspendedCalls).toBe(1)
    await clock.advance(59_000)
    expect(server.suspendedCalls).toBe(1)
    await clock.advance(2_000)
    await waiting.cleanedUp
    await until(() => server.suspendedCalls === 0)
    const late = call({ inputResponses: { [Object.keys(first.inputRequests)[0]!]: { action: 'accept', content: { ok: true } } }, requestState: first.requestState })
    await expect(late).rejects.toThrow(/This requestState cannot be used: that tool call is over, it was aborted: no answer came within 60 s \(limits\.roundHoldMs\)\./)
  })

  it('one let go of from memory (warmCalls: 0) is timed out by its record, naming roundHoldMs all the same', async () => {
    const clock = createTestClock()
    const waiting = waitingTool()
    const server = serve(clock, waiting.tool, { roundHoldMs: 60_000, warmCalls: 0 })
    const call = await modernClient(server)
    const first = (await call()) as Extract<Round, { resultType: 'input_required' }>
    await clock.advance(61_000)
    const late = call({ inputResponses: { [Object.keys(first.inputRequests)[0]!]: { action: 'accept', content: { ok: true } } }, requestState: first.requestState })
    await expect(late).rejects.toThrow(/that tool call is over, it was aborted: no answer came within 60 s \(limits\.roundHoldMs\)/)
    // Nothing of it ran again: its finally ran once, when it was let go of from memory.
    await waiting.cleanedUp
  })

  it('a 2025-11-25 call on the same server waits limits.idleTimeoutMs: its request is open, so the server knows its client is there', async () => {
    const clock = createTestClock()
    const waiting = waitingTool()
    const server = serve(clock, waiting.tool, { roundHoldMs: 60_000, idleTimeoutMs: 600_000 })
    const client = await connectClient(server, '2025-11-25')
    open.unshift(client)
    let shown: () => void = () => {}
    const asked = new Promise<void>((resolve) => (shown = resolve))
    client.elicitAnswers.push(() => {
      shown()
      return new Promise(() => {}) // the person is still deciding
    })
    const result = client.call('wait_for_user').catch((error: Error) => error)
    await asked
    await clock.advance(61_000)
    expect(server.suspendedCalls).toBe(1)
    await clock.advance(600_000)
    await waiting.cleanedUp
    await until(() => server.suspendedCalls === 0)
    void result
  })

  it('roundHoldMs is validated: at least a second, at most limits.idleTimeoutMs; without it a shorter limits.idleTimeoutMs holds a round', async () => {
    const clock = createTestClock()
    const { tool } = waitingTool()
    expect(() => serve(clock, tool, { roundHoldMs: 999 })).toThrow(/limits\.roundHoldMs: at least 1000 ms/)
    expect(() => serve(clock, tool, { roundHoldMs: 120_000, idleTimeoutMs: 60_000 })).toThrow(
      /limits\.roundHoldMs \(120000 ms\) is longer than limits\.idleTimeoutMs \(60000 ms\); a round cannot wait longer than any answer may take\. Give at most 60000, or raise limits\.idleTimeoutMs\./,
    )
    const waiting = waitingTool()
    const server = serve(clock, waiting.tool, { idleTimeoutMs: 30_000 })
    const call = await modernClient(server)
    const first = (await call()) as Extract<Round, { resultType: 'input_required' }>
    await clock.advance(31_000)
    await waiting.cleanedUp
    const late = call({ inputResponses: { [Object.keys(first.inputRequests)[0]!]: { action: 'decline' } }, requestState: first.requestState })
    await expect(late).rejects.toThrow(/that tool call is over, it was aborted: no answer came within 30 s \(limits\.idleTimeoutMs\)/)
  })
})

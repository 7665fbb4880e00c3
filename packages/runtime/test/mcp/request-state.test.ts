/**
 * The requestState of 2026-07-28 multi round-trip calls is attacker-controlled input. A client in
 * manual mode (`allowInputRequired`) holds it between rounds, so these tests can tamper with it.
 */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpServer, type BridgeMcpServer } from '../../src/mcp.ts'
import { type CallStore, createMemoryStore, createSqliteStore } from '../../src/server.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bookFlight } from '../fixtures/book-flight.ts'
import { FULL_CAPABILITIES } from './support/mcp-clients.ts'

interface InputRequired {
  resultType: 'input_required'
  inputRequests: Record<string, { method: string; params: { message?: string } }>
  requestState: string
}

const SECRET = 'a-test-secret-of-at-least-32-bytes!!'
const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  vi.useRealTimers()
  for (const c of open.splice(0)) await c.close()
})

async function manualClient(server: BridgeMcpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = server.listen({ transport: serverSide })
  const client = new Client({ name: 'manual', version: '1' }, { capabilities: FULL_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(clientSide)
  open.push({ close: async () => (await client.close(), await handle.close()) })
  const call = (params: Record<string, unknown>) =>
    client.callTool({ name: 'book_flight', arguments: { from: 'OSL', destination: 'BER' }, ...params }, { allowInputRequired: true }) as Promise<CallToolResult | InputRequired>
  return { client, call }
}

/** A server signing with SECRET, or (`secret: false`) with its store's own key. */
function serve(store?: CallStore, { secret = true }: { secret?: boolean } = {}): BridgeMcpServer {
  const server = createMcpServer({ name: 's', version: '1', tools: [bookFlight], ...(secret && { secret: SECRET }), ...(store && { store }) })
  open.push(server)
  return server
}

function asked(result: CallToolResult | InputRequired): InputRequired {
  expect(result).toMatchObject({ resultType: 'input_required' })
  return result as InputRequired
}

describe('requestState integrity (2026-07-28)', () => {
  it('round-trips: input_required with one request, then the retry with the answer moves the call on', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    expect(Object.keys(first.inputRequests)).toEqual(['elicit-pickFlight-1'])
    expect(first.inputRequests['elicit-pickFlight-1']!.method).toBe('elicitation/create')
    const second = asked(await call({ inputResponses: { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'SH-142' } } }, requestState: first.requestState }))
    expect(Object.keys(second.inputRequests)).toEqual(['elicit-pickSeat-2'])
  })

  it('refuses a forged state: a changed payload or a state signed with another key', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    const [version, body, mac] = first.requestState.split('.')
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString())
    payload.p.journal = [{ kind: 'elicit', key: 'pickFlight', seq: 1, result: { action: 'accept', content: { flightId: 'FREE-001' } } }]
    const tampered = [version, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.')
    await expect(call({ inputResponses: {}, requestState: tampered })).rejects.toThrow(/Invalid or expired requestState/)

    const other = createMcpServer({ name: 'other', version: '1', tools: [bookFlight], secret: 'another-secret-that-is-32-bytes-long' })
    open.push(other)
    const foreign = asked(await (await manualClient(other)).call({}))
    await expect(call({ inputResponses: {}, requestState: foreign.requestState })).rejects.toThrow(/Invalid or expired requestState/)
  })

  it('refuses an expired state', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 31 * 60_000)
    await expect(call({ inputResponses: { 'elicit-pickFlight-1': { action: 'decline' } }, requestState: first.requestState })).rejects.toThrow(/Invalid or expired requestState/)
  })

  it('refuses a state moved to another call; a retried round whose answer was taken gets where the call is now, applying nothing twice', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    await expect(call({ arguments: { from: 'OSL', destination: 'PAR' }, requestState: first.requestState })).rejects.toThrow(
      /This requestState cannot be used: it was issued for another tool call \(different tool or arguments\)/,
    )
    const answer = { 'elicit-pickFlight-1': { action: 'decline' } }
    const done = (await call({ inputResponses: answer, requestState: first.requestState })) as CallToolResult
    expect(done.structuredContent).toEqual({ booked: false, reason: 'decline' })
    // Its response was lost, say: the retry gets the same result, and nothing runs again.
    expect(((await call({ inputResponses: answer, requestState: first.requestState })) as CallToolResult).structuredContent).toEqual(done.structuredContent)

    const again = asked(await call({}))
    const pick = { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'SH-142' } } }
    const seat = asked(await call({ inputResponses: pick, requestState: again.requestState }))
    // A retry of that round with its answer gets the question the call asks now; the answer is not applied again.
    const now = asked(await call({ inputResponses: pick, requestState: again.requestState }))
    expect(Object.keys(now.inputRequests)).toEqual(['elicit-pickSeat-2'])
    expect(now.inputRequests).toEqual(seat.inputRequests)
    // With another answer it is refused, saying so: that question was answered already.
    await expect(call({ inputResponses: answer, requestState: again.requestState })).rejects.toThrow(
      /This requestState cannot be used: it is stale: its question was answered already, with another answer \(which was kept\)/,
    )
    const booked = (await call({ inputResponses: { 'elicit-pickSeat-2': { action: 'decline' } }, requestState: now.requestState })) as CallToolResult
    expect(booked.structuredContent).toEqual({ booked: false, reason: 'decline' })
    // The older state, once more with its answer: the call's result, not a second booking.
    expect(((await call({ inputResponses: pick, requestState: again.requestState })) as CallToolResult).structuredContent).toEqual(booked.structuredContent)
    await expect(call({ inputResponses: { 'elicit-pickSeat-2': { action: 'accept', content: { row: 4, seat: 'D' } } }, requestState: seat.requestState })).rejects.toThrow(
      /it is stale: its question was answered already, with another answer/,
    )
  })

  it('a state of a question asked again gets the result once the question was answered through the newer state', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    const next = asked(await call({ inputResponses: {}, requestState: first.requestState })) // asked again, same question
    await call({ inputResponses: { 'elicit-pickFlight-1': { action: 'decline' } }, requestState: next.requestState })
    // `first` asked the same question and it was answered through `next`: the result.
    await expect(call({ inputResponses: {}, requestState: first.requestState })).resolves.toMatchObject({ structuredContent: { booked: false } })
  })

  it('asks again when the retry carries no answer, and refuses a malformed one without losing the question', async () => {
    const { call } = await manualClient(serve())
    const first = asked(await call({}))
    const repeat = asked(await call({ inputResponses: {}, requestState: first.requestState }))
    expect(Object.keys(repeat.inputRequests)).toEqual(['elicit-pickFlight-1'])
    await expect(call({ inputResponses: { 'elicit-pickFlight-1': { action: 'maybe' } }, requestState: repeat.requestState })).rejects.toThrow(
      /inputResponses\["elicit-pickFlight-1"\]: An elicitation result must have action "accept", "decline" or "cancel"/,
    )
    const next = asked(await call({ inputResponses: { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'CA-287' } } }, requestState: repeat.requestState }))
    expect(Object.keys(next.inputRequests)).toEqual(['elicit-pickSeat-2'])
  })

  it('resumes on another instance sharing the store by replaying the journal; a finished call is refused everywhere', async () => {
    const store = createMemoryStore() // shared by the instances, as a Redis would be
    const first = asked(await (await manualClient(serve(store))).call({}))
    const { call } = await manualClient(serve(store)) // a fresh instance: it never saw this call
    const seat = asked(await call({ inputResponses: { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'CA-287' } } }, requestState: first.requestState }))
    const tip = asked(await call({ inputResponses: { 'elicit-pickSeat-2': { action: 'accept', content: { row: 7, seat: 'A' } } }, requestState: seat.requestState }))
    expect(Object.values(tip.inputRequests)[0]!.method).toBe('sampling/createMessage')
    const { call: call3 } = await manualClient(serve(store)) // and once more, for the sampling answer
    const last = {
      inputResponses: { [Object.keys(tip.inputRequests)[0]!]: { role: 'assistant', content: { type: 'text', text: 'Bring snacks.' }, model: 'm' } },
      requestState: tip.requestState,
    }
    const done = (await call3(last)) as CallToolResult
    expect(done.structuredContent).toMatchObject({ ticketNumber: 'TK-CA-287-7A', tip: 'Bring snacks.' })
    // The last state of the finished call, replayed on each instance, completes nothing again: it gets the same result.
    for (const again of [call, call3, (await manualClient(serve(store))).call]) {
      expect(((await again(last)) as CallToolResult).structuredContent).toEqual(done.structuredContent)
    }
  })

  it('without a shared store another instance cannot resume the call, and says why', async () => {
    const first = asked(await (await manualClient(serve())).call({}))
    const { call } = await manualClient(serve())
    await expect(call({ inputResponses: { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'CA-287' } } }, requestState: first.requestState })).rejects.toThrow(
      /This requestState cannot be used: This tool call is no longer known \(it expired, or it was held by a server that keeps calls only in memory\)/,
    )
  })

  it('without a secret, a state minted before a restart is taken after it: the store keeps the key (a SQLite file here)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-secret-'))
    open.push({ close: async () => rmSync(dir, { recursive: true, force: true }) })
    const before = await createSqliteStore({ path: join(dir, 'calls.db') })
    const first = asked(await (await manualClient(serve(before, { secret: false }))).call({}))
    await before.close() // the process stopped
    const after = await createSqliteStore({ path: join(dir, 'calls.db') })
    open.unshift({ close: () => after.close() })
    const { call } = await manualClient(serve(after, { secret: false }))
    const seat = asked(await call({ inputResponses: { 'elicit-pickFlight-1': { action: 'accept', content: { flightId: 'CA-287' } } }, requestState: first.requestState }))
    expect(Object.keys(seat.inputRequests)).toEqual(['elicit-pickSeat-2'])
    // Another store is another key: its servers refuse the state.
    const { call: elsewhere } = await manualClient(serve(createMemoryStore(), { secret: false }))
    await expect(elsewhere({ inputResponses: {}, requestState: seat.requestState })).rejects.toThrow(/Invalid or expired requestState/)
  })
})

/**
 * What the registry's parts are tested with, without a registry or a server: a booking tool that
 * reserves (a step) and asks (one question), a memory store on the test clock, an Effection scope
 * standing in for the registry's, and a logger that keeps what it is told.
 */
import { createScope } from 'effection'
import { afterEach } from 'vitest'
import { z } from 'zod'
import { CallCopies } from '../../../src/calls/call-copies.ts'
import type { LiveCall } from '../../../src/calls/live-call.ts'
import { nextEvent } from '../../../src/calls/live-call.ts'
import type { RecordWrites } from '../../../src/calls/record-writes.ts'
import type { StartCall } from '../../../src/calls/registry-types.ts'
import type { CallStore, StoredQuestion } from '../../../src/calls/stores/call-store.ts'
import { createMemoryStore } from '../../../src/calls/stores/memory-store.ts'
import { createMcpTool } from '../../../src/index.ts'
import type { McpBridgeLogger } from '../../../src/telemetry/logger.ts'
import { createTestClock, type TestClock } from '../../../src/testing.ts'

export const IDLE = 60_000
export const LEASE = 9_000

/** Each run of the booking tool's step and `finally`, in order. */
export const ran: string[] = []
export const book = createMcpTool('book')
  .parameters(z.object({ who: z.string() }))
  .elicits({ ok: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    try {
      const fare = yield* ctx.step('reserve', function* () {
        ran.push(`reserve ${params.who}`)
        return `F-${params.who}`
      })
      const answer = yield* ctx.elicit('ok', { message: `Book ${fare}?` })
      return { booked: answer.action === 'accept' && answer.content.ok, fare }
    } finally {
      ran.push(`finally ${params.who}`)
    }
  })

const ends: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const end of ends.splice(0)) await end()
  ran.length = 0
})

export interface Logged {
  level: string
  fields: Record<string, unknown>
  message: string
}

export function keepingLogger(): McpBridgeLogger & { lines: Logged[] } {
  const lines: Logged[] = []
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, fields: fields as Record<string, unknown>, message })
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

export interface Copies {
  clock: TestClock
  store: CallStore
  writes: RecordWrites
  copies: CallCopies<undefined>
  log: ReturnType<typeof keepingLogger>
  scope: ReturnType<typeof createScope>[0]
}

export function setupCopies({ warmCalls = 10, store: given, instanceId = 'instance-a' }: { warmCalls?: number; store?: CallStore; instanceId?: string } = {}): Copies {
  const clock = createTestClock()
  const store = given ?? createMemoryStore({ clock })
  const [scope, destroy] = createScope()
  ends.push(async () => void (await destroy()))
  const writes: RecordWrites = { store, clock, instanceId, surface: 'chat', idleTimeoutMs: IDLE, leaseMs: LEASE }
  const log = keepingLogger()
  const copies = new CallCopies<undefined>({ scope, clock, writes, log, wait: { ms: IDLE, option: 'limits.inputTimeoutMs' }, warmCalls })
  return { clock, store, writes, copies, log, scope }
}

export function spec(who: string): StartCall<undefined> {
  return { tool: book, params: { who }, callId: `call-${who}`, client: 'c', extra: undefined }
}

/** Run the call to its question and park it there, as a surface would. */
export async function runToQuestion(c: Copies, call: LiveCall<undefined>, options?: { pinned?: boolean }): Promise<StoredQuestion> {
  for (let event = await nextEvent(call); event; event = await nextEvent(call)) {
    if (event.type === 'elicit') {
      const question = { id: event.request.id, key: event.request.key, wire: { asked: event.request.message } }
      await c.copies.park(call, question, options)
      return question
    }
  }
  throw new Error(`call ${call.callId} ended without a question`)
}

/** A new call, started the way `CallRegistry.start` does and parked on its question. */
export async function parkedCall(c: Copies, who: string, options?: { pinned?: boolean }) {
  const call = c.copies.run(spec(who), { tokenHash: undefined, revision: 0, segment: { kind: 'start' } })
  const question = await runToQuestion(c, call, options)
  return { call, question }
}

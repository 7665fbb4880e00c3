/**
 * Property tests (fast-check) with hostile input at every boundary the outside world reaches:
 * chat request bodies, elicitation answers, x-model-context encode/extract, and the elicitation
 * schema checker. Each property is bounded in runs and size, so `npm test` stays fast.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, encodeModelContext, extractModelContext, MODEL_CONTEXT_BOUNDARY } from '../../src/index.ts'
import { McpBridgeError } from '../../src/errors.ts'
import { readChatEvents } from '../../src/client.ts'
import { checkElicitationSchema } from '../../src/schema/check-elicitation-schema.ts'
import { createBridgeHost, createChatHandler } from '../../src/server.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

const RUNS = { numRuns: 150 }
/** Keys that pollute prototypes when assigned carelessly. */
const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'x-model-context')
const key = fc.oneof(fc.string({ maxLength: 12 }), hostileKey)
/** JSON with hostile keys, nested up to a few levels. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value
const jsonObject = fc.dictionary(key, json, { maxKeys: 5 })
/** Messages that may carry what looks like a context section, or the boundary alone. */
const message = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}\n\n${MODEL_CONTEXT_BOUNDARY}\n${b}`),
  fc.constant(`${MODEL_CONTEXT_BOUNDARY}\n{"forged":true}`),
)

describe('x-model-context with hostile data', () => {
  it('round-trips any JSON object and message: from the schema and from the message alone', () => {
    fc.assert(
      fc.property(message, jsonObject, (msg, context) => {
        const encoded = encodeModelContext({ message: msg, context, schema: { type: 'object' } })
        const fromSchema = extractModelContext(encoded)
        const fromMessage = extractModelContext({ message: encoded.message })
        const expected = JSON.parse(JSON.stringify(context)) as unknown
        expect(fromSchema).toEqual({ message: msg, context: expected, source: Object.keys(context).length || msg.includes(MODEL_CONTEXT_BOUNDARY) ? 'schema' : 'none' })
        expect(fromMessage.message).toBe(msg)
        if (Object.keys(context).length > 0 || msg.includes(MODEL_CONTEXT_BOUNDARY)) expect(fromMessage.context).toEqual(expected)
        // Nothing leaked onto Object.prototype along the way.
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }),
      RUNS,
    )
  })
})

describe('checkElicitationSchema with hostile data', () => {
  it('never throws on any JSON: it returns violations (or none)', () => {
    fc.assert(
      fc.property(jsonObject, (schema) => {
        expect(Array.isArray(checkElicitationSchema(schema))).toBe(true)
      }),
      RUNS,
    )
  })
})

describe('elicitation answers with hostile data', () => {
  const strict = z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B']) })
  const tool = createMcpTool('answer_me')
    .elicits({ pick: strict })
    .execute(function* (_p, ctx) {
      return yield* ctx.elicit('pick', { message: 'Seat?' })
    })

  it('never throws; the tool only ever resumes with an answer its schema accepts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(json, fc.record({ action: fc.constantFrom('accept', 'decline', 'cancel', 'maybe'), content: json }, { requiredKeys: ['action'] })),
        async (answer) => {
          const host = createBridgeHost({ tool, params: {}, callId: 'c' })
          for await (const e of host.subscribe()) if (e.type === 'elicit') break
          const id = host.pending()!.id
          const outcome = host.respond({ id, result: answer as never })
          if (outcome.ok) {
            const end = await host.outcome
            expect(end.status).toBe('completed')
            const result = (end as { result: { action: string; content?: unknown } }).result
            if (result.action === 'accept') expect(strict.safeParse(result.content).success).toBe(true)
          } else {
            expect(['INVALID_RESULT', 'INVALID_CONTENT']).toContain(outcome.code)
            expect(host.pending()?.id).toBe(id)
            await host.abort()
          }
        },
      ),
      RUNS,
    )
  })
})

describe('chat request bodies with hostile data', () => {
  const handler = createChatHandler({ tools: [bookFlight], model: createScriptedModel({ fallback: 'ok', onSample: () => 'tip' }) })
  const post = (body: string) => handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))

  it('answer 200 with a stream that ends in conversation_state, or a 4xx that names the problem; never 500', async () => {
    const body = fc.oneof(
      json.map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.array(jsonObject, { maxLength: 3 }) }), { maxLength: 3 }),
            elicitResponses: fc.array(jsonObject, { maxLength: 3 }),
            abort: jsonObject,
          },
          { requiredKeys: ['messages'] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
    )
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const res = await post(text)
        if (res.status === 200) {
          const events = []
          for await (const e of readChatEvents(res.body!)) events.push(e)
          expect(events.at(-1)?.type).toBe('conversation_state')
        } else {
          expect(res.status).toBeGreaterThanOrEqual(400)
          expect(res.status).toBeLessThan(500)
          const problem = (await res.json()) as { code: string; message: string }
          expect(problem.message.length).toBeGreaterThan(0)
        }
      }),
      RUNS,
    )
    expect(handler.calls.size).toBe(0)
  }, 60_000)

  it('every error the library throws on purpose is an McpBridgeError with a code', () => {
    expect(() => createChatHandler({ tools: 'x' as never, model: createScriptedModel({}) })).toThrow(McpBridgeError)
  })
})

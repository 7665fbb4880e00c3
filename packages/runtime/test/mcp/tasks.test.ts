/**
 * MCP Tasks (`io.modelcontextprotocol/tasks`) as the official requester drives them
 * (`@modelcontextprotocol/ext-tasks` on the SDK v2 client), and the wire as the extension states
 * it: a tool that asks becomes a task for a client that opts in; `tasks/get` shows its question,
 * `tasks/update` answers it (an answer that does not fit is asked again under a new key, saying
 * why), `tasks/cancel` ends it; a task survives its server — two instances on one Redis behind one
 * address, the first closed while the question is open — and is nobody else's. The requester
 * books, is refused an answer, cancels and fails over; the rest is checked on the wire.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod/v4'
import { suspend } from 'effection'
import { createMcpTool } from '../../src/index.ts'
import { createMcpServer, type BridgeMcpServer } from '../../src/mcp.ts'
import { createRedisStore, type CallStore } from '../../src/server.ts'
import { serveHttp } from './support/mcp-clients.ts'
import { startRedis, type RedisProcess } from '../support/redis-server.ts'
import { startFailoverProxy } from '../support/failover-proxy.ts'
import { ack, listen, pollUntil, post, requester, resultOf, TASKS } from './support/tasks-wire.ts'

const log: string[] = []

const bookSeat = createMcpTool('book_seat')
  .description('Book a seat on a flight')
  .parameters(z.object({ flight: z.string() }))
  .elicits({ pickSeat: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }) })
  .execute(function* (params, ctx) {
    try {
      const picked = yield* ctx.elicit('pickSeat', { message: `Pick a seat on ${params.flight}` })
      if (picked.action !== 'accept') return 'Not booked'
      const ticket = yield* ctx.step('issue ticket', function* () {
        return `TK-${params.flight}-${picked.content.row}${picked.content.seat}`
      })
      return `Booked seat ${picked.content.row}${picked.content.seat} on ${params.flight}: ticket ${ticket}`
    } finally {
      log.push(`finally ${params.flight}`)
    }
  })

const greet = createMcpTool('greet')
  .parameters(z.object({ name: z.string() }))
  .execute(function* (params) {
    return `Hello, ${params.name}!`
  })

const waitForever = createMcpTool('wait_forever')
  .taskSupport('required')
  .execute(function* () {
    try {
      yield* suspend()
      return 'never'
    } finally {
      log.push('finally wait_forever')
    }
  })

const render = createMcpTool('render')
  .taskSupport('optional')
  .execute(function* (_params, ctx) {
    yield* ctx.notify('Rendering', 1, 3)
    yield* suspend()
    return 'never'
  })

const tools = [bookSeat, greet, waitForever, render]

describe('MCP Tasks on one server', () => {
  let mcp: BridgeMcpServer
  let http: Awaited<ReturnType<typeof serveHttp>>
  beforeAll(async () => {
    mcp = createMcpServer({ name: 'tasks', version: '1.0.0', tools, clientKey: (request) => request.headers.get('x-test-client') ?? 'ada' })
    http = await serveHttp(mcp)
  })
  afterAll(async () => {
    await http.close()
    await mcp.close()
  })
  afterEach(() => void (log.length = 0))

  it('the official requester books a seat as a task: its question arrives through tasks/get, its answer goes by tasks/update', async () => {
    const client = await requester(http.url, () => ({ action: 'accept', content: { row: 3, seat: 'B' } }))
    try {
      const execution = await client.session.callTool('book_seat', { flight: 'JS-501' })
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe('completed')
      const result = outcome.status === 'completed' ? (outcome.result as { content: Array<{ text: string }> }) : undefined
      expect(result?.content[0]?.text).toBe('Booked seat 3B on JS-501: ticket TK-JS-501-3B')
      expect(client.seen).toHaveLength(1)
      expect(client.seen[0]!.delivery).toBe('task-update')
      expect(String(client.seen[0]!.params.message)).toContain('Pick a seat on JS-501')
    } finally {
      await client.close()
    }
  }, 30_000)

  it('the official requester: an answer that does not fit is asked again, saying why, and the next one books', async () => {
    const answers = [
      { action: 'accept' as const, content: { row: 99, seat: 'B' } },
      { action: 'accept' as const, content: { row: 4, seat: 'C' } },
    ]
    const client = await requester(http.url, () => answers.shift()!)
    try {
      const { outcome } = await (await client.session.callTool('book_seat', { flight: 'JS-511' })).settle()
      expect(outcome.status === 'completed' && (outcome.result as { content: Array<{ text: string }> }).content[0]!.text).toBe('Booked seat 4C on JS-511: ticket TK-JS-511-4C')
      expect(client.seen.map((s) => String(s.params.message).split('. ')[0])).toEqual(['Pick a seat on JS-511', expect.stringMatching(/^That answer did not fit \(.*row/)])
    } finally {
      await client.close()
    }
  }, 30_000)

  it('the official requester cancels while the question is open: the task ends cancelled and the tool’s finally runs', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let asked!: () => void
    const question = new Promise<void>((resolve) => (asked = resolve))
    const client = await requester(http.url, async () => {
      asked()
      await released // the person has not answered when the requester cancels
      return { action: 'cancel' }
    })
    try {
      const execution = await client.session.callTool('book_seat', { flight: 'JS-512' })
      await question
      await execution.cancel()
      release()
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe('cancelled')
      expect(log).toContain('finally JS-512')
    } finally {
      await client.close()
    }
  }, 30_000)

  it('answers tools/call with a task at once, which tasks/get finds; a tool that cannot ask answers as before', async () => {
    const created = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-502' } }))
    expect(created).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1000 })
    expect(created).not.toHaveProperty('requestState')
    expect(created).not.toHaveProperty('task')
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(String(created.createdAt))).toBeGreaterThan(0)
    expect(Number.isInteger(created.ttlMs) && (created.ttlMs as number) > 0).toBe(true)
    const got = resultOf(await post(http.url, 'tasks/get', { taskId: created.taskId }))
    expect(got).toMatchObject({ resultType: 'complete', taskId: created.taskId })
    const waiting = await pollUntil(http.url, String(created.taskId), (t) => t.status === 'input_required')
    const [key, request] = Object.entries(waiting.inputRequests as Record<string, { method: string; params: { message: string } }>)[0]!
    expect(request.method).toBe('elicitation/create')
    expect(request.params.message).toContain('Pick a seat on JS-502')
    await post(http.url, 'tasks/cancel', { taskId: created.taskId })
    expect(key).toMatch(/^elicit-pickSeat-\d+$/)

    const plain = resultOf(await post(http.url, 'tools/call', { name: 'greet', arguments: { name: 'World' } }))
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, World!' }] })
    expect(plain).not.toHaveProperty('taskId')
  }, 30_000)

  it('a client that does not opt in: tools/call is plain, a task-only tool and the task methods are refused with -32021 naming the extension', async () => {
    const plain = await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-503' } }, { tasks: false })
    expect(resultOf(plain)).toMatchObject({ resultType: 'input_required' })
    const required = await post(http.url, 'tools/call', { name: 'wait_forever', arguments: {} }, { tasks: false })
    expect(required).toMatchObject({ kind: 'error', error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } })
    expect(required.kind === 'error' && required.error.message).toContain('Tool "wait_forever" runs only as a task')
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const refused = await post(http.url, method, { taskId: 'x', inputResponses: {} }, { tasks: false })
      expect(refused).toMatchObject({ kind: 'error', error: { code: -32021 } })
    }
  }, 30_000)

  it('an answer that does not fit is not applied: the task stays input_required, asked again under a new key saying why; the right answer then books', async () => {
    const { taskId } = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-504' } }))
    const first = await pollUntil(http.url, String(taskId), (t) => t.status === 'input_required')
    const [key] = Object.keys(first.inputRequests as object)
    expect(resultOf(await post(http.url, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { row: 99, seat: 'B' } } } }))).toMatchObject({
      resultType: 'complete',
    })
    const again = await pollUntil(http.url, String(taskId), (t) => t.status === 'input_required' && !(key! in (t.inputRequests as object)))
    const [newKey, request] = Object.entries(again.inputRequests as Record<string, { params: { message: string } }>)[0]!
    expect(newKey).toBe(`${key}~1`)
    expect(request!.params.message).toMatch(/^That answer did not fit \(.*row.*\)\. Pick a seat on JS-504/)
    // The old key is no longer outstanding: ignored, as the extension says.
    await post(http.url, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { row: 4, seat: 'C' } } } })
    expect((await pollUntil(http.url, String(taskId), () => true)).status).toBe('input_required')
    await post(http.url, 'tasks/update', { taskId, inputResponses: { [newKey!]: { action: 'accept', content: { row: 5, seat: 'D' } } } })
    const done = await pollUntil(http.url, String(taskId), (t) => t.status === 'completed')
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Booked seat 5D on JS-504: ticket TK-JS-504-5D' }] })
  }, 30_000)

  it('tasks/cancel ends a waiting task and a running one as cancelled (their finally blocks run); again on an ended task is the same ack', async () => {
    const waiting = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-505' } }))
    await pollUntil(http.url, String(waiting.taskId), (t) => t.status === 'input_required')
    const running = resultOf(await post(http.url, 'tools/call', { name: 'wait_forever', arguments: {} }))
    for (const { taskId } of [waiting, running]) {
      expect(ack(await post(http.url, 'tasks/cancel', { taskId }))).toEqual({ resultType: 'complete' })
      const ended = await pollUntil(http.url, String(taskId), (t) => t.status !== 'working' && t.status !== 'input_required')
      expect(ended).toMatchObject({ status: 'cancelled' })
      expect(ended).not.toHaveProperty('result')
      expect(ack(await post(http.url, 'tasks/cancel', { taskId }))).toEqual({ resultType: 'complete' })
    }
    expect(log).toEqual(expect.arrayContaining(['finally JS-505', 'finally wait_forever']))
  }, 30_000)

  it('a working task says how far it got: its latest progress is its statusMessage', async () => {
    const { taskId } = resultOf(await post(http.url, 'tools/call', { name: 'render', arguments: {} }))
    const working = await pollUntil(http.url, String(taskId), (t) => t.statusMessage !== undefined)
    expect(working).toMatchObject({ status: 'working', statusMessage: 'Rendering (1/3)' })
    await post(http.url, 'tasks/cancel', { taskId })
  }, 30_000)

  it('a client at its limit of held calls is told so as a result, and no task is made', async () => {
    const limited = createMcpServer({ name: 'tasks', version: '1.0.0', tools, limits: { maxCallsPerClient: 1 } })
    const served = await serveHttp(limited)
    try {
      const first = resultOf(await post(served.url, 'tools/call', { name: 'wait_forever', arguments: {} }))
      expect(first.resultType).toBe('task')
      const refused = resultOf(await post(served.url, 'tools/call', { name: 'wait_forever', arguments: {} }))
      expect(refused).toMatchObject({ resultType: 'complete', isError: true, content: [{ text: expect.stringMatching(/limits\.maxCallsPerClient/) }] })
      expect(refused).not.toHaveProperty('taskId')
    } finally {
      await served.close()
      await limited.close()
    }
  }, 30_000)

  it('a listen stream naming its tasks is told each change, the last with the result, then ends; only the caller’s own tasks are acknowledged', async () => {
    const { taskId } = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-507' } }))
    const bobs = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-508' } }, { client: 'bob' }))
    const stream = await listen(http.url, { taskIds: [taskId, bobs.taskId, '00000000-0000-4000-8000-000000000000'] })
    if (stream.refused) throw new Error(stream.refused.message)
    const stamp = { 'io.modelcontextprotocol/subscriptionId': stream.id }
    const acknowledged = await stream.next((m) => m.method === 'notifications/subscriptions/acknowledged')
    expect(acknowledged.params).toEqual({ notifications: { taskIds: [taskId] }, _meta: stamp })
    const asked = await stream.next((m) => m.method === 'notifications/tasks' && m.params?.status === 'input_required')
    expect(asked.params).toMatchObject({ taskId, pollIntervalMs: 1000, _meta: stamp })
    const [key, question] = Object.entries(asked.params!.inputRequests as Record<string, { params: { message: string } }>)[0]!
    expect(question.params.message).toBe('Pick a seat on JS-507')
    const from = stream.messages.length
    await post(http.url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { row: 2, seat: 'A' } } } })
    const done = await stream.next((m) => m.params?.status === 'completed', from)
    expect(done.params).toMatchObject({ taskId, result: { resultType: 'complete', content: [{ type: 'text', text: 'Booked seat 2A on JS-507: ticket TK-JS-507-2A' }] } })
    await stream.ended
    expect(stream.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: stream.id, result: { resultType: 'complete', _meta: stamp } })
    const told = stream.messages.filter((m) => m.method === 'notifications/tasks')
    expect(told.every((m) => m.params?.taskId === taskId)).toBe(true)
    // Each change once: no status is said twice in a row.
    expect(told.map((m) => m.params?.status).filter((status, i, all) => status === all[i - 1])).toEqual([])
    await post(http.url, 'tasks/cancel', { taskId: bobs.taskId }, { client: 'bob' })
  }, 30_000)

  it('a listen stream tells a working task’s progress and its cancel; one naming tasks wrongly, or without opting in, is refused', async () => {
    const { taskId } = resultOf(await post(http.url, 'tools/call', { name: 'render', arguments: {} }))
    const stream = await listen(http.url, { taskIds: [taskId] })
    if (stream.refused) throw new Error(stream.refused.message)
    await stream.next((m) => m.method === 'notifications/tasks' && m.params?.statusMessage === 'Rendering (1/3)')
    await post(http.url, 'tasks/cancel', { taskId })
    expect((await stream.next((m) => m.params?.status === 'cancelled')).params).toMatchObject({ taskId, statusMessage: 'Cancelled.' })
    await stream.ended

    const unopted = await listen(http.url, { taskIds: [taskId] }, { tasks: false })
    expect(unopted).toMatchObject({ refused: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } })
    expect(unopted.refused?.message).toMatch(/^A subscriptions\/listen naming taskIds needs the MCP Tasks extension/)
    for (const [taskIds, said] of [
      ['x', 'taskIds must be an array of task ids'],
      [[], 'name at least one task'],
      [Array.from({ length: 101 }, (_, i) => `t${i}`), 'at most 100 tasks per stream'],
    ] as const) {
      const refused = await listen(http.url, { taskIds })
      expect(refused).toMatchObject({ refused: { code: -32602, message: expect.stringContaining(said) } })
    }
  }, 30_000)

  it('a task is its caller’s: another client, and an id that never was, get the same -32602', async () => {
    const { taskId } = resultOf(await post(http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-506' } }))
    const stranger = await post(http.url, 'tasks/get', { taskId }, { client: 'bob' })
    const never = await post(http.url, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' })
    for (const refused of [stranger, never]) expect(refused).toMatchObject({ kind: 'error', error: { code: -32602, message: expect.stringMatching(/^Unknown task /) } })
    expect(await post(http.url, 'tasks/cancel', { taskId }, { client: 'bob' })).toMatchObject({ kind: 'error', error: { code: -32602 } })
    expect((await pollUntil(http.url, String(taskId), () => true)).status).not.toBe('cancelled')
    await post(http.url, 'tasks/cancel', { taskId })
  }, 30_000)
})

describe('MCP Tasks across instances on Redis', () => {
  let redis: RedisProcess
  let store: CallStore
  beforeAll(async () => {
    redis = await startRedis()
    store = await createRedisStore({ url: redis.url, keyPrefix: 'tasks:' })
  }, 30_000)
  afterAll(async () => {
    await store?.close()
    await redis?.stop()
  })
  /** An instance on the shared store (and secret). */
  const serve = async () => {
    const mcp = createMcpServer({ name: 'tasks', version: '1.0.0', tools, store, secret: 'a shared secret of at least 32 bytes!!' })
    return { mcp, http: await serveHttp(mcp) }
  }

  it('the official requester books a seat as a task across two instances behind one address: the first closes while the question is open, the answer and the polls go to the second', async () => {
    const a = await serve()
    const b = await serve()
    const proxy = await startFailoverProxy(a.http.url.origin)
    const client = await requester(new URL('/mcp', proxy.url), async () => {
      // Asked on A; A goes away before the answer, and the address now reaches B.
      await a.http.close()
      await a.mcp.close()
      proxy.target(b.http.url.origin)
      return { action: 'accept', content: { row: 8, seat: 'D' } }
    })
    try {
      const { outcome } = await (await client.session.callTool('book_seat', { flight: 'JS-602' })).settle()
      expect(outcome.status === 'completed' && (outcome.result as { content: Array<{ text: string }> }).content[0]!.text).toBe('Booked seat 8D on JS-602: ticket TK-JS-602-8D')
      expect(client.seen).toHaveLength(1)
    } finally {
      await client.close()
      await proxy.close()
      await b.http.close()
      await b.mcp.close()
    }
  }, 60_000)

  it('a task created on one instance is polled, listened to and answered on another after the first closed, and completes there', async () => {
    const a = await serve()
    const b = await serve()
    try {
      const { taskId } = resultOf(await post(a.http.url, 'tools/call', { name: 'book_seat', arguments: { flight: 'JS-601' } }))
      const waiting = await pollUntil(a.http.url, String(taskId), (t) => t.status === 'input_required')
      // B reads the task's status from the store: a listen there hears what A's call does.
      const stream = await listen(b.http.url, { taskIds: [taskId] })
      if (stream.refused) throw new Error(stream.refused.message)
      expect((await stream.next((m) => m.method === 'notifications/tasks')).params).toMatchObject({ taskId, status: 'input_required' })
      await a.http.close()
      await a.mcp.close() // the warm copy goes with it: B replays the journal
      const onB = resultOf(await post(b.http.url, 'tasks/get', { taskId }))
      expect(onB.inputRequests).toEqual(waiting.inputRequests)
      const [key] = Object.keys(waiting.inputRequests as object)
      await post(b.http.url, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { row: 7, seat: 'A' } } } })
      const done = await pollUntil(b.http.url, String(taskId), (t) => t.status === 'completed')
      expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Booked seat 7A on JS-601: ticket TK-JS-601-7A' }] })
      expect((await stream.next((m) => m.params?.status === 'completed')).params).toMatchObject({ result: done.result })
      await stream.ended
    } finally {
      await b.http.close()
      await b.mcp.close()
    }
  }, 60_000)
})

import { call, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type ElicitRequest } from '../../src/index.ts'
import { JournalDivergenceError, type StepFailedError, ToolContextUsageError } from '../../src/errors.ts'
import { type BridgeHost, type BridgeOutcome, createBridgeHost, type JournalEntry, toolResultOf } from '../../src/server.ts'

async function nextElicit(host: BridgeHost<unknown>): Promise<ElicitRequest> {
  for await (const event of host.subscribe()) {
    if (event.type === 'elicit' && host.pending() === event.request) return event.request
  }
  throw new Error(`the call ended without eliciting (${host.status()})`)
}

function errorOf(outcome: BridgeOutcome<unknown>): Error {
  if (outcome.status !== 'failed') throw new Error(`expected the call to fail, it ${outcome.status}`)
  return outcome.error
}

/** A tool that charges (a step), asks to confirm, then issues a ticket (a step); every side effect is counted. */
function chargingTool(effects: string[]) {
  return createMcpTool('charge_and_confirm')
    .parameters(z.object({ amount: z.number() }))
    .elicits({ confirm: z.object({ ok: z.boolean() }) })
    .execute(function* (params, ctx) {
      const charge = yield* ctx.step('charge card', function* ({ idempotencyKey }) {
        effects.push(`charge ${params.amount} (${idempotencyKey})`)
        return { chargeId: 'ch_1', amount: params.amount }
      })
      const answer = yield* ctx.elicit('confirm', { message: `Charged ${charge.chargeId}. Issue the ticket?` })
      if (answer.action !== 'accept' || !answer.content.ok) return 'cancelled'
      const ticket = yield* ctx.step('issue ticket', async () => {
        effects.push('ticket')
        return 'T-1'
      })
      return `${charge.chargeId}/${ticket}`
    })
}

describe('ctx.step', () => {
  it('runs once live; a replay returns the recorded values without running the step again', async () => {
    const effects: string[] = []
    const tool = chargingTool(effects)
    const first = createBridgeHost({ tool, params: { amount: 5 }, callId: 'c1' })
    await nextElicit(first)
    expect(effects).toEqual(['charge 5 (c1:charge card#1)'])
    const journal = structuredClone(first.journal) as JournalEntry[]
    expect(journal[0]).toEqual({ kind: 'step', name: 'charge card', seq: 1, value: { chargeId: 'ch_1', amount: 5 } })
    await first.abort('instance restarted')

    const resumed = createBridgeHost({ tool, params: { amount: 5 }, callId: 'c1', replay: journal })
    const question = await nextElicit(resumed)
    expect(effects).toEqual(['charge 5 (c1:charge card#1)'])
    expect(question).toMatchObject({ id: 'c1#1', key: 'confirm', message: 'Charged ch_1. Issue the ticket?' })
    resumed.respond({ id: question.id, result: { action: 'accept', content: { ok: true } } })
    expect(await resumed.outcome).toEqual({ status: 'completed', result: 'ch_1/T-1' })
    expect(effects).toEqual(['charge 5 (c1:charge card#1)', 'ticket'])
    expect(resumed.journal.map((e) => `${e.seq} ${e.kind} ${e.name}`)).toEqual(['1 step charge card', '2 elicit confirm', '3 step issue ticket'])
  })

  it('makes each entry durable (persist) before the tool goes on', async () => {
    const order: string[] = []
    const tool = createMcpTool('two_steps')
      .elicits({})
      .execute(function* (_p, ctx) {
        yield* ctx.step('a', function* () {
          order.push('run a')
          return 1
        })
        order.push('after a')
        yield* ctx.step('b', function* () {
          order.push('run b')
        })
        return 'ok'
      })
    const persist = function* (journal: readonly JournalEntry[]): Operation<void> {
      yield* call(() => new Promise((resolve) => setTimeout(resolve, 5)))
      order.push(`durable ${journal.length}`)
    }
    expect(await createBridgeHost({ tool, params: {}, callId: 'p', persist }).outcome).toEqual({ status: 'completed', result: 'ok' })
    expect(order).toEqual(['run a', 'durable 1', 'after a', 'run b', 'durable 2'])
  })

  it('a failing step fails as StepFailedError, live and on replay (where it does not run again)', async () => {
    let runs = 0
    const tool = createMcpTool('declined_card')
      .elicits({ retry: z.object({ again: z.boolean() }) })
      .execute(function* (_p, ctx) {
        try {
          yield* ctx.step('charge card', function* () {
            runs++
            throw new Error('card declined')
          })
        } catch (error) {
          const e = error as StepFailedError
          yield* ctx.elicit('retry', { message: `${e.code}: ${e.message}` })
        }
        return 'done'
      })
    const live = createBridgeHost({ tool, params: {}, callId: 'f' })
    const asked = await nextElicit(live)
    expect(asked.message).toBe('STEP_FAILED: Tool "declined_card": step "charge card" failed: card declined')
    const journal = structuredClone(live.journal) as JournalEntry[]
    expect(journal).toEqual([{ kind: 'step', name: 'charge card', seq: 1, error: { message: 'card declined' } }])
    await live.abort()
    const replayed = createBridgeHost({ tool, params: {}, callId: 'f', replay: journal })
    expect((await nextElicit(replayed)).message).toBe(asked.message)
    expect(runs).toBe(1)
    await replayed.abort()
  })

  it('a replay that meets another step than the journal fails with JournalDivergenceError naming both', async () => {
    const effects: string[] = []
    const journal: JournalEntry[] = [{ kind: 'step', name: 'refund card', seq: 1, value: 'r_1' }]
    const outcome = await createBridgeHost({ tool: chargingTool(effects), params: { amount: 5 }, callId: 'd', replay: journal }).outcome
    const error = errorOf(outcome)
    expect(error).toBeInstanceOf(JournalDivergenceError)
    expect(error.message).toContain('its journal has step "refund card" (#1) where the tool now reaches step "charge card" (#1)')
    expect(effects).toEqual([])
  })

  it('an answer recorded for another question is never fed to this one', async () => {
    const journal: JournalEntry[] = [
      { kind: 'step', name: 'charge card', seq: 1, value: { chargeId: 'ch_1' } },
      { kind: 'elicit', name: 'pickSeat', seq: 2, result: { action: 'accept', content: { ok: true } } },
    ]
    const outcome = await createBridgeHost({ tool: chargingTool([]), params: { amount: 5 }, callId: 'd', replay: journal }).outcome
    expect(errorOf(outcome).message).toContain('elicit "pickSeat" (#2) where the tool now reaches elicit "confirm" (#2)')
  })

  it('a tool that ends before its journal is used up diverged too', async () => {
    const tool = createMcpTool('short')
      .elicits({})
      .execute(function* () {
        return 'done'
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 's', replay: [{ kind: 'step', name: 'x', seq: 1 }] }).outcome
    expect(errorOf(outcome).message).toContain('its journal has step "x" (#1) where the tool now reaches the end of the tool')
  })

  it('refuses values JSON cannot carry, nested steps, steps in branches and questions inside steps', async () => {
    const cases: Record<string, (ctx: Parameters<Parameters<ReturnType<ReturnType<typeof createMcpTool>['elicits']>['execute']>[0]>[1]) => Operation<unknown>> = {
      'must return plain JSON': (ctx) =>
        ctx.step('now', function* () {
          return new Map()
        }),
      'steps do not nest': (ctx) =>
        ctx.step('outer', function* () {
          return yield* ctx.step('inner', function* () {
            return 1
          })
        }),
      'inside ctx.branch': (ctx) => ctx.branch(() => (ctx as unknown as { step: typeof ctx.step }).step('in branch', function* () {})),
      'may not ask the user': (ctx) =>
        ctx.step('asks', function* () {
          return yield* (ctx.elicit as (k: string, o: object) => Operation<unknown>)('q', { message: 'hi?' })
        }),
      'needs a non-empty name': (ctx) => ctx.step('  ', function* () {}),
    }
    for (const [expected, body] of Object.entries(cases)) {
      const tool = createMcpTool('misuse')
        .elicits({ q: z.object({ a: z.string() }) })
        .execute(function* (_p, ctx) {
          return yield* body(ctx as never)
        })
      const error = errorOf(await createBridgeHost({ tool, params: {}, callId: 'm' }).outcome)
      expect(error, expected).toBeInstanceOf(ToolContextUsageError)
      expect(error.message).toContain(expected)
    }
  })

  it('a body that returns a plain value (untyped JavaScript) records that value, strings and arrays too', async () => {
    const tool = createMcpTool('plain')
      .elicits({})
      .execute(function* (_p, ctx) {
        const step = ctx.step as unknown as (name: string, body: () => unknown) => Operation<unknown>
        return [yield* step('text', () => 'started'), yield* step('list', () => [1, 2]), yield* step('none', () => undefined)]
      })
    const host = createBridgeHost({ tool, params: {}, callId: 'p' })
    expect(await host.outcome).toEqual({ status: 'completed', result: ['started', [1, 2], undefined] })
    expect(host.journal.map((e) => (e as { value?: unknown }).value)).toEqual(['started', [1, 2], undefined])
  })

  it("a handoff's before() is a step: recorded once and replayed, never run again", async () => {
    let befores = 0
    const tool = createMcpTool('handoff_step')
      .elicits({ ok: z.object({ yes: z.boolean() }) })
      .handoff({
        *before() {
          befores++
          return { hold: 'H-1' }
        },
        *client(handoff, ctx) {
          return yield* ctx.elicit('ok', { message: `Keep ${handoff.hold}?` })
        },
        *after(handoff, answer, ctx) {
          const receipt = yield* ctx.step('confirm hold', function* () {
            return `${handoff.hold}:${answer.action}`
          })
          return receipt
        },
      })
    const first = createBridgeHost({ tool, params: {}, callId: 'h' })
    await nextElicit(first)
    const journal = structuredClone(first.journal) as JournalEntry[]
    expect(journal).toEqual([{ kind: 'step', name: 'handoff.before', seq: 1, value: { hold: 'H-1' } }])
    await first.abort()
    const resumed = createBridgeHost({ tool, params: {}, callId: 'h', replay: journal })
    const q = await nextElicit(resumed)
    expect(q.handoff).toEqual({ hold: 'H-1' })
    resumed.respond({ id: q.id, result: { action: 'accept', content: { yes: true } } })
    expect(await resumed.outcome).toEqual({ status: 'completed', result: 'H-1:accept' })
    expect(befores).toBe(1)
  })
})

describe('ctx.patched', () => {
  /** v1 charges, then asks; v2 checks the seat first, behind a patch. */
  const tool = (effects: string[], v2: boolean) =>
    createMcpTool('charge_and_confirm')
      .elicits({ confirm: z.object({ ok: z.boolean() }) })
      .execute(function* (_p, ctx) {
        if (v2 && (yield* ctx.patched('check-seat')))
          yield* ctx.step('check seat', function* () {
            effects.push('check')
            return 'free'
          })
        yield* ctx.step('charge card', function* () {
          effects.push('charge')
          return 'ch_1'
        })
        const answer = yield* ctx.elicit('confirm', { message: 'Confirm?' })
        return answer.action
      })

  it('replays a call recorded before the patch the old way, records the new path for a new call, and replays that too', async () => {
    const effects: string[] = []
    const v1 = createBridgeHost({ tool: tool(effects, false), params: {}, callId: 'old' })
    await nextElicit(v1)
    const oldJournal = [...v1.journal]
    await v1.abort()

    // The old call on the new code: false at the patch (its journal goes on with the charge), nothing runs again.
    const resumed = createBridgeHost({ tool: tool(effects, true), params: {}, callId: 'old', replay: oldJournal })
    const asked = await nextElicit(resumed)
    resumed.respond({ id: asked.id, result: { action: 'accept', content: { ok: true } } })
    expect(await resumed.outcome).toEqual({ status: 'completed', result: 'accept' })
    expect(effects).toEqual(['charge'])

    // A new call takes the new path, and its journal says so.
    const fresh = createBridgeHost({ tool: tool(effects, true), params: {}, callId: 'new' })
    await nextElicit(fresh)
    expect(fresh.journal.map((e) => `${e.kind}:${e.name}`)).toEqual(['patch:check-seat', 'step:check seat', 'step:charge card'])
    const freshJournal = [...fresh.journal]
    await fresh.abort()
    const replayed = createBridgeHost({ tool: tool(effects, true), params: {}, callId: 'new', replay: freshJournal })
    await nextElicit(replayed)
    expect(effects).toEqual(['charge', 'check', 'charge']) // the replay ran nothing
    await replayed.abort()
  })

  it('needs a name, and is refused inside a step or a branch', async () => {
    const misuse = (
      body: (ctx: {
        patched(n: string): Operation<boolean>
        step: (n: string, b: () => Operation<unknown>) => Operation<unknown>
        branch: (b: () => Operation<unknown>) => Operation<unknown>
      }) => Operation<unknown>,
    ) =>
      createBridgeHost({
        tool: createMcpTool('misuse')
          .elicits({})
          .execute(function* (_p, ctx) {
            return yield* body(ctx as never)
          }),
        params: {},
        callId: 'm',
      }).outcome
    expect(errorOf(await misuse((ctx) => ctx.patched('')))).toBeInstanceOf(ToolContextUsageError)
    expect(errorOf(await misuse((ctx) => ctx.step('s', () => ctx.patched('p')))).message).toMatch(/ctx\.patched\("p"\) inside step "s"/)
    expect(errorOf(await misuse((ctx) => ctx.branch(() => ctx.patched('p')))).message).toMatch(/ctx\.patched\("p"\) inside ctx\.branch/)
  })
})

describe('a call stopped after a step', () => {
  it('says which steps were done (their effects stay) and what each returned (the ticket number), in its outcome and its tool result', async () => {
    const effects: string[] = []
    const host = createBridgeHost({ tool: chargingTool(effects), params: { amount: 5 }, callId: 'c' })
    await nextElicit(host)
    const outcome = await host.abort('cancelled by the user')
    expect(outcome).toEqual({ status: 'aborted', reason: 'cancelled by the user', completed: [{ name: 'charge card', result: { chargeId: 'ch_1', amount: 5 } }] })
    expect(toolResultOf(outcome)).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'The tool call was aborted: cancelled by the user. Already done before it stopped (not undone): "charge card" (its result: {"chargeId":"ch_1","amount":5}).',
        },
      ],
    })
    // Nothing done yet: nothing said.
    expect(toolResultOf({ status: 'aborted', reason: 'x' })).toEqual({ isError: true, content: [{ type: 'text', text: 'The tool call was aborted: x' }] })
  })
})

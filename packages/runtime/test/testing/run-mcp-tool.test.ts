import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createMockMcpClient, runMcpTool } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

describe('runMcpTool with createMockMcpClient', () => {
  it('runs book_flight end to end and returns the result and the ordered timeline', async () => {
    const client = createMockMcpClient({
      elicitResponses: [
        { action: 'accept', content: { flightId: 'CA-287' } },
        { action: 'accept', content: { row: 12, seat: 'C' } },
      ],
      sampleResponses: ['Arrive two hours early at LAX.'],
    })
    const run = await runMcpTool(bookFlight, { from: 'NYC', destination: 'LAX' }, client)

    expect(run.status).toBe('completed')
    expect(run.result).toEqual({
      booked: true,
      ticketNumber: 'TK-CA-287-12C',
      flight: 'CA-287',
      seat: '12C',
      price: 349,
      tip: 'Arrive two hours early at LAX.',
    })
    expect(run.timeline.map((e) => e.type)).toEqual(['log', 'elicit', 'elicit_resolved', 'elicit', 'elicit_resolved', 'notify', 'sample', 'sample_result', 'notify', 'completed'])
    expect(client.elicitRequests.map((r) => [r.key, r.id])).toEqual([
      ['pickFlight', 'call_test_1#1'],
      ['pickSeat', 'call_test_1#2'],
    ])
    expect(client.elicitRequests[0]!.context).toMatchObject({ flights: [{ id: 'SH-142' }, { id: 'CA-287' }] })
    expect(client.sampleRequests[0]!.messages[0]!.content).toEqual([{ type: 'text', text: 'One travel tip for LAX airport' }])
    expect(client.remaining()).toEqual({ elicit: 0, sample: 0 })
    expect(run.journal.map((j) => j.kind)).toEqual(['elicit', 'elicit', 'sample'])
  })

  it('records refused answers and uses the next one, like a user correcting a form', async () => {
    const client = createMockMcpClient({
      elicitResponses: [
        { action: 'accept', content: { flightId: 'SH-142' } },
        { action: 'accept', content: { row: 99, seat: 'Z' } },
        { action: 'accept', content: { row: 3, seat: 'A' } },
      ],
      sampleResponses: ['tip'],
    })
    const run = await runMcpTool(bookFlight, { from: 'A', destination: 'B' }, client)
    expect(run.result).toMatchObject({ seat: '3A' })
    const refused = run.timeline.filter((e) => e.type === 'elicit_refused')
    expect(refused).toMatchObject([{ code: 'INVALID_CONTENT', id: 'call_test_1#2' }])
  })

  it('stops with a clear reason when the script runs out of answers', async () => {
    const client = createMockMcpClient({ elicitResponses: [{ action: 'accept', content: { flightId: 'SH-142' } }] })
    const run = await runMcpTool(bookFlight, { from: 'A', destination: 'B' }, client)
    expect(run.status).toBe('aborted')
    expect(run.reason).toMatch(/no answer left for "pickSeat" \(call_test_1#2\)/)
    expect(run.timeline.at(-2)).toMatchObject({ type: 'elicit_cancelled', id: 'call_test_1#2' })
  })

  it('reports a decline as the tool handles it', async () => {
    const run = await runMcpTool(bookFlight, { from: 'A', destination: 'B' }, createMockMcpClient({ elicitResponses: [{ action: 'decline' }] }))
    expect(run.result).toEqual({ booked: false, reason: 'decline' })
  })

  it("gives each question the call's params and a handoff tool's before() value; before runs once", async () => {
    let befores = 0
    const plan = createMcpTool('plan_trip')
      .parameters(z.object({ city: z.string() }))
      .elicits({ pick: z.object({ option: z.string() }) })
      .handoff({
        *before(params) {
          befores += 1
          return { options: [`${params.city} old town`, `${params.city} harbour`] }
        },
        *client(handoff, ctx) {
          const first = yield* ctx.elicit('pick', { message: 'Pick one' })
          const again = yield* ctx.elicit('pick', { message: `Sure? (${handoff.options.length} options)` })
          return [first, again]
        },
        *after(_h, answers) {
          return answers.map((a) => (a.action === 'accept' ? a.content.option : a.action))
        },
      })
    const client = createMockMcpClient({
      elicitResponses: [
        { action: 'accept', content: { option: 'harbour' } },
        (req) => ({ action: 'accept', content: { option: String((req.handoff as { options: string[] }).options[0]) } }),
      ],
    })
    const run = await runMcpTool(plan, { city: 'Oslo' }, client)
    expect(run.result).toEqual(['harbour', 'Oslo old town'])
    expect(befores).toBe(1)
    expect(client.elicitRequests.map((r) => ({ params: r.params, handoff: r.handoff }))).toEqual([
      { params: { city: 'Oslo' }, handoff: { options: ['Oslo old town', 'Oslo harbour'] } },
      { params: { city: 'Oslo' }, handoff: { options: ['Oslo old town', 'Oslo harbour'] } },
    ])
  })
})

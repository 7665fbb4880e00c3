/**
 * Every playground tool, completed by a client that sees only the plain form — `requestedSchema`
 * and `message`, as Claude Desktop or the MCP Inspector render them — with no knowledge of the
 * tool: official SDK clients of both protocol generations, over stdio, declaring nothing beyond
 * forms and sampling. It picks from titled choices, keeps defaults, reads what the message says
 * (a taken seat, the current color); no message it is shown holds JSON.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectClient, GENERATIONS, type ScriptedClient } from '../../packages/runtime/test/mcp/support/mcp-clients.ts'
import { cleanEnv } from './support/processes.ts'
import { fillPlainForm, type PlainForm } from './support/plain-form-fill.ts'

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/mcp-stdio.mjs')

describe.each(GENERATIONS)('every playground tool in a plain form, %s client', (generation) => {
  let client: ScriptedClient
  const shown: string[] = []
  beforeAll(async () => {
    client = await connectClient(undefined, generation, {
      stdio: { command: process.execPath, args: [bin], cwd: '/', stderr: 'pipe', env: cleanEnv() as Record<string, string> },
    })
  }, 60_000)
  afterAll(async () => {
    await client?.close()
    // A person was shown every question: none of it was JSON.
    expect(shown.length).toBeGreaterThan(5)
    for (const message of shown) {
      expect(message).not.toMatch(/[{[]"|x-model-context/)
    }
  })
  const answerEveryQuestion = () => {
    for (let i = 0; i < 5; i++) {
      client.elicitAnswers.push((params) => {
        shown.push(params.message)
        return { action: 'accept', content: fillPlainForm(params as unknown as PlainForm) as never }
      })
    }
  }
  const run = async (tool: string, args: Record<string, unknown>) => {
    client.elicitAnswers.splice(0)
    answerEveryQuestion()
    const result = await client.call(tool, args)
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    return result.structuredContent as Record<string, unknown>
  }

  it('book_flight: the flights are a titled select, the seat question says which seats are taken', async () => {
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Take the train.' }, model: 'plain' }))
    expect(await run('book_flight', { from: 'Oslo', destination: 'Berlin' })).toMatchObject({ booked: true, seat: expect.stringMatching(/^\d+[A-D]$/) })
    const seat = client.received.filter((r) => r.kind === 'elicit').at(-1)!.params as unknown as PlainForm
    expect(seat.message).toMatch(/^Pick a seat on .+\n\nRows 1–12, seats A, B, C, D\. Taken: .+\.$/)
  }, 60_000)

  it('plan_trip: the activities (handoff data) are a titled select', async () => {
    expect(await run('plan_trip', { city: 'Oslo' })).toMatchObject({ planned: true, city: 'Oslo' })
    const asked = client.received.filter((r) => r.kind === 'elicit').at(-1)!.params as unknown as PlainForm
    expect(asked.requestedSchema.properties.activityId!.oneOf!.map((o) => o.title)).toContainEqual(expect.stringMatching(/museum pass — 3 h, \$25$/))
  }, 60_000)

  it('reserve_table: only free times are offered; the party details are a form of their own', async () => {
    expect(await run('reserve_table', {})).toMatchObject({ reserved: true, name: 'Ada Lovelace' })
  }, 60_000)

  it('choose_color: the message names a color in the format the field asks for', async () => {
    expect(await run('choose_color', {})).toMatchObject({ chosen: true, color: '#3b82f6' })
  }, 60_000)

  it('rate_trip and build_report complete as they are', async () => {
    expect(await run('rate_trip', {})).toBeDefined()
    expect(await run('build_report', { steps: 1 })).toBeDefined()
  }, 60_000)
})

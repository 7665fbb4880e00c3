/**
 * The playground's own tools served over stdio (`node playground/bin/mcp-stdio.mjs`), driven by
 * official SDK clients of both generations in a child process, as MCP Inspector would.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { extractModelContext } from '@mcp-bridge/runtime'
import { accept, connectClient, GENERATIONS, type ScriptedClient } from '../../packages/runtime/test/mcp/support/mcp-clients.ts'
import { cleanEnv } from './support/processes.ts'

const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/mcp-stdio.mjs')
const clients: ScriptedClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
})

describe.each(GENERATIONS)('playground tools over stdio, %s client', (generation) => {
  it('lists the tools and books a flight with the real book_flight, reading x-model-context', async () => {
    // From another directory, as a desktop client would start it.
    const client = await connectClient(undefined, generation, {
      stdio: { command: process.execPath, args: [bin], cwd: '/', stderr: 'pipe', env: cleanEnv() as Record<string, string> },
    })
    clients.push(client)
    const { tools } = await client.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['book_flight', 'build_report', 'choose_color', 'plan_trip', 'rate_trip', 'reserve_table'])
    // The title for people travels with the name (`.title()`).
    expect(tools.find((t) => t.name === 'book_flight')).toMatchObject({
      title: 'Book a flight',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      icons: [{ mimeType: 'image/svg+xml', sizes: ['any'] }],
    })
    expect(tools.find((t) => t.name === 'choose_color')?.outputSchema).toMatchObject({ type: 'object', required: ['chosen'] })

    client.elicitAnswers.push((params) => {
      const { context } = extractModelContext({ message: params.message, schema: params.requestedSchema })
      const flights = context.flights as Array<{ id: string; price: number }>
      const cheapest = [...flights].sort((a, b) => a.price - b.price)[0]!
      return { action: 'accept', content: { flightId: cheapest.id } }
    })
    client.elicitAnswers.push((params) => {
      const { context } = extractModelContext({ message: params.message, schema: params.requestedSchema })
      const { rows, taken } = context as { rows: number; taken: string[] }
      const seat = ['A', 'B', 'C', 'D'].find((letter) => !taken.includes(`${rows}${letter}`))!
      return { action: 'accept', content: { row: rows, seat } }
    })
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Take the train to the center.' }, model: 'scripted' }))
    const result = await client.call('book_flight', { from: 'Oslo', destination: 'Berlin' })
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ booked: true, seat: expect.stringMatching(/^12[A-D]$/), tip: 'Take the train to the center.' })
  }, 60_000)
})

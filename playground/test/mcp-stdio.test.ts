/**
 * The playground's own tools served over stdio — from source (`node playground/bin/mcp-stdio.mjs`,
 * through tsx) and built (`node playground/dist/stdio/mcp-stdio.js`, what `npm run build` emits) —
 * driven by official SDK clients of both generations in a child process, as MCP Inspector would.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { extractModelContext } from '@mcp-bridge/runtime'
import { connectClient, FULL_CAPABILITIES, GENERATIONS, type ScriptedClient } from '../../packages/runtime/test/mcp/support/mcp-clients.ts'
import { cleanEnv, run } from './support/processes.ts'

const playground = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bin = resolve(playground, 'bin/mcp-stdio.mjs')
const built = resolve(playground, 'dist/stdio/mcp-stdio.js')
beforeAll(() => run(['scripts/build-stdio.mjs'], { cwd: playground, env: cleanEnv(), timeoutMs: 60_000, what: 'the stdio build' }), 90_000)
const clients: ScriptedClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
})

const entries = GENERATIONS.flatMap((generation) => [['source', generation, bin] as const, ['built', generation, built] as const])
describe.each(entries)('playground tools over stdio (%s), %s client', (_kind, generation, entry) => {
  it('lists the tools and books a flight with the real book_flight, reading x-model-context', async () => {
    // From another directory, as a desktop client would start it.
    const client = await connectClient(undefined, generation, {
      stdio: { command: process.execPath, args: [entry], cwd: '/', stderr: 'pipe', env: cleanEnv() as Record<string, string> },
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

  it('offers the prompt and the resource template the Vite plugin discovered (serverPrompts, serverResources)', async () => {
    const client = await connectClient(undefined, generation, {
      stdio: { command: process.execPath, args: [entry], cwd: '/', stderr: 'pipe', env: cleanEnv() as Record<string, string> },
    })
    clients.push(client)
    const { prompts } = await client.client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(['plan_weekend'])
    const completion = await client.client.complete({ ref: { type: 'ref/prompt', name: 'plan_weekend' }, argument: { name: 'city', value: 'o' } })
    expect(completion.completion.values).toEqual(['Oslo'])
    const prompt = await client.client.getPrompt({ name: 'plan_weekend', arguments: { city: 'Oslo', from: 'Berlin' } })
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringMatching(/^Plan a weekend in Oslo, flying from Berlin/) })
    const { resourceTemplates } = await client.client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('flights://{from}/{to}')
    const read = await client.client.readResource({ uri: 'flights://Oslo/Berlin' })
    const flights = JSON.parse((read.contents[0] as { text: string }).text) as Array<{ id: string }>
    expect(flights.map((f) => f.id)).toContain('JS-501')
  }, 60_000)
})

describe('playground tools over stdio as MCP Apps (npm run mcp)', () => {
  it("serves book_flight's view, built on the first read with nothing on stdout but the protocol, and the view's answers book the flight", async () => {
    const client = await connectClient(undefined, '2025-11-25', {
      capabilities: { ...FULL_CAPABILITIES, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } },
      stdio: { command: process.execPath, args: [bin], cwd: '/', stderr: 'pipe', env: cleanEnv() as Record<string, string> },
    })
    clients.push(client)
    const { tools } = await client.client.listTools()
    const uri = (tools.find((t) => t.name === 'book_flight')!._meta as { ui: { resourceUri: string } }).ui.resourceUri
    expect(uri).toBe('ui://mcp-bridge-playground/book_flight.html')
    // Built with Vite inside the stdio server (its logs go to stderr, or this read would break).
    const read = await client.client.readResource({ uri }, { timeout: 120_000 })
    const html = (read.contents[0] as { text: string; mimeType: string }).text
    expect(read.contents[0]?.mimeType).toBe('text/html;profile=mcp-app')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<div id="root"></div>')
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i)

    // The view's side, through the app-only tools (the Chromium test renders the real one).
    client.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'Take the train.' }, model: 'scripted' }))
    const result = client.call('book_flight', { from: 'Oslo', destination: 'Berlin' })
    const viewCall = async (name: string, args: Record<string, unknown>) =>
      ((await client.client.callTool({ name, arguments: args }, { timeout: 60_000 })) as { structuredContent: Record<string, unknown> }).structuredContent
    let state = await viewCall('mcp_bridge_view_next', { tool: 'book_flight', arguments: { from: 'Oslo', destination: 'Berlin' } })
    const seat = { callId: state.callId, pass: state.pass }
    const answers: Record<string, Record<string, unknown>> = { pickFlight: { flightId: 'JS-501' }, pickSeat: { row: 5, seat: 'A' } }
    while (state.status !== 'done') {
      if (state.status === 'question') {
        const question = state.question as { id: string; key: string }
        expect(await viewCall('mcp_bridge_view_answer', { ...seat, elicitId: question.id, result: { action: 'accept', content: answers[question.key] } })).toMatchObject({
          status: 'accepted',
        })
      }
      state = await viewCall('mcp_bridge_view_next', { tool: 'book_flight', ...seat, after: state.version })
    }
    expect((await result).structuredContent).toMatchObject({ booked: true, seat: '5A', ticketNumber: 'TK-JS-501-5A' })
    expect(client.received.filter((r) => r.kind === 'elicit')).toEqual([])
  }, 180_000)
})

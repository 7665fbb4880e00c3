/**
 * MCP Apps on the server side, with the official SDK client as the host: a tool with a view is
 * listed with `_meta.ui.resourceUri` and its view is a `ui://` resource; for a client that
 * declares the extension, the call's questions go to the view (through the app-only tools, as
 * ext-apps proxies them) and the final result to the tools/call; clients without it are served
 * exactly as before; a view that never comes lets the question fall back to a form.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/client'
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'
import { Client as Client132 } from 'mcp-sdk-1-32/client/index.js'
import { InMemoryTransport as Memory132 } from 'mcp-sdk-1-32/inMemory.js'
import { ElicitRequestSchema as Elicit132 } from 'mcp-sdk-1-32/types.js'
import { createMcpTool, createPlugin, type RenderedProps } from '../../src/index.ts'
import { createAppViewSession } from '../../src/app-view.ts'
import { createEmissionStore, type EmissionStore } from '../../src/client.ts'
import { createMcpServer, MCP_APP_MIME_TYPE, type BridgeMcpServer, type McpAppsOptions } from '../../src/mcp.ts'
import { OptionsError } from '../../src/errors.ts'
import { accept, connectClient, FULL_CAPABILITIES, serveHttp, textOf, type Generation, type ScriptedClient } from './support/mcp-clients.ts'
import { createTestClock, type TestClock } from '../../src/testing.ts'
import { until } from '../support/until.ts'
import { CLAIM_WAIT_MS } from '../../src/mcp/view-tools.ts'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.close()
})

const pickSeat = createMcpTool('pick_seat')
  .description('Pick a seat on a flight.')
  .parameters(z.object({ flight: z.string() }))
  .elicits({
    seat: z.object({ row: z.int().min(1).max(30), letter: z.enum(['A', 'B', 'C']) }),
    confirm: z.object({ ok: z.boolean() }),
  })
  .execute(function* ({ flight }, ctx) {
    const seat = yield* ctx.elicit('seat', { message: `Pick a seat on ${flight}` })
    if (seat.action !== 'accept') return 'no seat'
    const confirm = yield* ctx.elicit('confirm', { message: `Confirm ${seat.content.row}${seat.content.letter}?` })
    return confirm.action === 'accept' && confirm.content.ok ? `booked ${flight} ${seat.content.row}${seat.content.letter}` : 'not booked'
  })

const plain = createMcpTool('plain')
  .description('No view.')
  .parameters(z.object({}))
  .elicits({})
  .execute(function* () {
    return 'plain'
  })

const VIEW_HTML = '<!doctype html><html><body><p>pick a seat</p></body></html>'
const UI_CAPABILITIES: ClientCapabilities = { ...FULL_CAPABILITIES, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MCP_APP_MIME_TYPE] } } }

function serve(apps: Partial<McpAppsOptions> = {}, clock?: TestClock): BridgeMcpServer {
  const server = createMcpServer({
    name: 'apps-test',
    version: '1.0.0',
    tools: [pickSeat, plain],
    apps: { views: { pick_seat: () => VIEW_HTML }, ...apps },
    ...(clock && { clock }),
  })
  open.push(server)
  return server
}

/** The test server behind Streamable HTTP on 127.0.0.1 (closed after the test). */
async function serveOverHttp(clock?: TestClock): Promise<{ server: BridgeMcpServer; url: URL }> {
  const server = serve({}, clock)
  const http = await serveHttp(server)
  open.unshift(http)
  return { server, url: http.url }
}

async function connect(server: BridgeMcpServer, generation: Generation, capabilities: ClientCapabilities, http?: URL): Promise<ScriptedClient> {
  const client = await connectClient(server, generation, { capabilities, ...(http && { http }) })
  open.unshift(client)
  return client
}

type ViewReply = Record<string, unknown> & { status?: string; callId?: string; pass?: string; version?: number; question?: { id: string; key: string; message: string } }

/** What a view does, through the host's client: the app-only tools. */
async function view(client: ScriptedClient, name: string, args: Record<string, unknown>): Promise<ViewReply> {
  const result = (await client.client.callTool({ name, arguments: args }, { timeout: 30_000 })) as CallToolResult
  if (result.isError) return { status: 'error', text: textOf(result) }
  return result.structuredContent as ViewReply
}

async function nextQuestion(client: ScriptedClient, seat: { callId: string; pass: string }, after: number): Promise<ViewReply> {
  for (;;) {
    const reply = await view(client, 'mcp_bridge_view_next', { tool: 'pick_seat', ...seat, after })
    if (reply.status !== 'working') return reply
    after = reply.version!
  }
}

/** What a view does first: take its call (a pass comes back) and wait for the call's first question. */
async function takeCall(client: ScriptedClient, args: Record<string, unknown>): Promise<{ seat: { callId: string; pass: string }; first: ViewReply; asked: ViewReply }> {
  const first = await view(client, 'mcp_bridge_view_next', { tool: 'pick_seat', arguments: args })
  const seat = { callId: first.callId!, pass: first.pass! }
  return { seat, first, asked: first.status === 'question' ? first : await nextQuestion(client, seat, first.version!) }
}

describe('MCP Apps: listing and resources', () => {
  it('uses the MIME type of ext-apps', () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE)
  })

  it('names the view of a tool with a plugin UI, lists the view tools to hosts only, and serves the view as a ui:// resource', async () => {
    const server = serve()
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES)
    const { tools } = await host.client.listTools()
    const uri = 'ui://apps-test/pick_seat.html'
    expect(tools.find((t) => t.name === 'pick_seat')?._meta).toEqual({ ui: { resourceUri: uri }, 'ui/resourceUri': uri })
    expect(tools.find((t) => t.name === 'plain')?._meta).toBeUndefined()
    const appOnly = tools.filter((t) => (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility?.includes('app'))
    expect(appOnly.map((t) => t.name).sort()).toEqual(['mcp_bridge_view_answer', 'mcp_bridge_view_next'])

    const { resources } = await host.client.listResources()
    expect(resources).toEqual([{ uri, name: 'pick_seat view', mimeType: RESOURCE_MIME_TYPE }])
    const read = await host.client.readResource({ uri })
    expect(read.contents[0]).toMatchObject({ uri, mimeType: RESOURCE_MIME_TYPE, text: VIEW_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } })
    await expect(host.client.readResource({ uri: 'ui://apps-test/plain.html' })).rejects.toThrow(/Unknown resource "ui:\/\/apps-test\/plain.html"/)

    const plainClient = await connect(server, '2025-11-25', FULL_CAPABILITIES)
    const plainTools = (await plainClient.client.listTools()).tools.map((t) => t.name)
    expect(plainTools.sort()).toEqual(['pick_seat', 'plain'])
    const refused = (await plainClient.client.callTool({ name: 'mcp_bridge_view_next', arguments: { tool: 'pick_seat' } }).catch((e: Error) => e)) as Error
    expect(String(refused.message ?? refused)).toMatch(/Unknown tool "mcp_bridge_view_next"/)
  })

  it('refuses views for tools it does not serve, and a view loader that fails says which tool', async () => {
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [plain], apps: { views: { nope: '<p>' } } })).toThrow(OptionsError)
    expect(() => createMcpServer({ name: 'x', version: '1', tools: [plain], apps: { views: { plain: '<p>' }, claimTimeoutMs: -1 } as McpAppsOptions })).toThrow(/claimTimeoutMs/)
    const server = createMcpServer({
      name: 'x',
      version: '1',
      tools: [plain],
      apps: {
        views: {
          plain: () => {
            throw new Error('dist/mcp-apps/plain.html is missing')
          },
        },
      },
    })
    open.push(server)
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES)
    await expect(host.client.readResource({ uri: 'ui://x/plain.html' })).rejects.toThrow(/The view of tool "plain" could not be loaded: dist\/mcp-apps\/plain.html is missing/)
  })
})

describe.each([
  ['in memory (stdio)', false],
  ['Streamable HTTP session', true],
] as const)('MCP Apps: the view asks the questions, %s', (_, overHttp) => {
  it('shows each question to the view, refuses an invalid answer with its issues, and the result reaches the tools/call', async () => {
    const { server, url } = overHttp ? await serveOverHttp() : { server: serve(), url: undefined }
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES, url)
    const result = host.call('pick_seat', { flight: 'JS-501' })

    const { seat, first, asked } = await takeCall(host, { flight: 'JS-501' })
    expect(first.pass).toEqual(expect.any(String))
    expect(asked.question).toMatchObject({ key: 'seat', message: 'Pick a seat on JS-501' })

    const invalid = await view(host, 'mcp_bridge_view_answer', { ...seat, elicitId: asked.question!.id, result: { action: 'accept', content: { row: 99, letter: 'B' } } })
    expect(invalid).toMatchObject({ status: 'refused', issues: [expect.objectContaining({ path: 'row' })] })
    expect(String(invalid.message)).toMatch(/row/i)

    const wrongPass = await view(host, 'mcp_bridge_view_answer', {
      ...seat,
      pass: 'forged',
      elicitId: asked.question!.id,
      result: { action: 'accept', content: { row: 3, letter: 'B' } },
    })
    expect(wrongPass).toMatchObject({ status: 'error', text: expect.stringMatching(/no longer holds that tool call/) })

    expect(await view(host, 'mcp_bridge_view_answer', { ...seat, elicitId: asked.question!.id, result: { action: 'accept', content: { row: 3, letter: 'B' } } })).toMatchObject({
      status: 'accepted',
    })
    const confirm = await nextQuestion(host, seat, asked.version!)
    expect(confirm.question).toMatchObject({ key: 'confirm', message: 'Confirm 3B?' })
    expect(await view(host, 'mcp_bridge_view_answer', { ...seat, elicitId: confirm.question!.id, result: { action: 'accept', content: { ok: true } } })).toMatchObject({
      status: 'accepted',
    })

    expect(textOf(await result)).toBe('booked JS-501 3B')
    expect(await nextQuestion(host, seat, confirm.version!)).toMatchObject({ status: 'done', isError: false, text: 'booked JS-501 3B' })
    expect(host.received.filter((r) => r.kind === 'elicit')).toEqual([]) // no form was sent
  }, 60_000)
})

describe('MCP Apps: graceful everywhere', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)(
    'a %s client without the extension answers through forms, as before',
    async (generation) => {
      const { server, url } = await serveOverHttp()
      const client = await connect(server, generation, FULL_CAPABILITIES, url)
      client.elicitAnswers.push(accept({ row: 7, letter: 'C' }), accept({ ok: true }))
      expect(textOf(await client.call('pick_seat', { flight: 'JS-7' }))).toBe('booked JS-7 7C')
      expect(client.received.filter((r) => r.kind === 'elicit')).toHaveLength(2)
    },
    60_000,
  )

  it('an SDK 1.x client (no extension) answers through forms and is not shown the view tools', async () => {
    const server = serve()
    const client = new Client132({ name: 'sdk1', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    const answers = [{ row: 4, letter: 'B' }, { ok: true }]
    client.setRequestHandler(Elicit132, async () => ({ action: 'accept', content: answers.shift()! }))
    const [clientSide, serverSide] = Memory132.createLinkedPair()
    const handle = server.listen({ transport: serverSide as never })
    open.unshift({ close: async () => (await client.close(), await handle.close()) })
    await client.connect(clientSide)
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['pick_seat', 'plain'])
    const result = await client.callTool({ name: 'pick_seat', arguments: { flight: 'JS-4' } })
    expect(result.content).toEqual([{ type: 'text', text: 'booked JS-4 4B' }])
    expect(answers).toEqual([])
  }, 60_000)

  it('a host with views but no forms is offered the tool, and its view may take its time', async () => {
    const clock = createTestClock()
    const server = serve({ claimTimeoutMs: 200 }, clock)
    const host = await connect(server, '2025-11-25', { extensions: { 'io.modelcontextprotocol/ui': {} } })
    expect((await host.client.listTools()).tools.map((t) => t.name)).toContain('pick_seat')
    const result = host.call('pick_seat', { flight: 'JS-6' })
    await until(() => server.suspendedCalls === 1) // its question is shown to the view, which has not come
    await clock.advance(10 * 60_000) // far past claimTimeoutMs: there is no form to fall back to
    expect(host.received.filter((r) => r.kind === 'elicit')).toEqual([])
    const { seat, asked } = await takeCall(host, { flight: 'JS-6' })
    expect(asked.question).toMatchObject({ key: 'seat' })
    await view(host, 'mcp_bridge_view_answer', { ...seat, elicitId: asked.question!.id, result: { action: 'cancel' } })
    expect(textOf(await result)).toBe('no seat')
  }, 60_000)

  it('a stateless 2026-07-28 HTTP host keeps its input-required rounds (no session a view could reach)', async () => {
    const { server, url } = await serveOverHttp()
    const client = await connect(server, '2026-07-28', UI_CAPABILITIES, url)
    client.elicitAnswers.push(accept({ row: 2, letter: 'A' }), accept({ ok: true }))
    expect(textOf(await client.call('pick_seat', { flight: 'JS-2' }))).toBe('booked JS-2 2A')
  }, 60_000)

  it('a question no view takes within claimTimeoutMs is asked as a form, and so are the later ones', async () => {
    const clock = createTestClock()
    const server = serve({ claimTimeoutMs: 300 }, clock)
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES)
    host.elicitAnswers.push(accept({ row: 5, letter: 'A' }), accept({ ok: true }))
    const result = host.call('pick_seat', { flight: 'JS-5' })
    await until(() => server.suspendedCalls === 1)
    await clock.advance(299)
    expect(host.received.filter((r) => r.kind === 'elicit')).toEqual([]) // the view may still come
    await clock.advance(1)
    expect(textOf(await result)).toBe('booked JS-5 5A') // the later question asked as a form at once: no more time passed
    expect(host.received.filter((r) => r.kind === 'elicit')).toHaveLength(2)
  }, 60_000)

  it("another session cannot take a call's view", async () => {
    const clock = createTestClock()
    const { server, url } = await serveOverHttp(clock)
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES, url)
    const other = await connect(server, '2025-11-25', UI_CAPABILITIES, url)
    const result = host.call('pick_seat', { flight: 'JS-9' })
    await until(() => server.suspendedCalls === 1)
    const quiet = clock.sleepers
    const stranger = view(other, 'mcp_bridge_view_next', { tool: 'pick_seat', arguments: { flight: 'JS-9' } })
    await until(() => clock.sleepers > quiet) // it waits for such a call to start in its own session…
    await clock.advance(CLAIM_WAIT_MS - 1)
    expect(clock.sleepers).toBeGreaterThan(quiet) // …for the whole wait…
    await clock.advance(1)
    expect(await stranger).toMatchObject({ status: 'not_found' }) // …and never finds the other session's
    const { seat, asked } = await takeCall(host, { flight: 'JS-9' })
    await view(host, 'mcp_bridge_view_answer', { ...seat, elicitId: asked.question!.id, result: { action: 'decline' } })
    expect(textOf(await result)).toBe('no seat')
  }, 60_000)
})

function SeatGrid(_: { message: string } & RenderedProps<{ row: number; letter: 'A' | 'B' | 'C' }>) {
  return null
}
function Confirm(_: RenderedProps<{ ok: boolean }>) {
  return null
}
const pickSeatPlugin = createPlugin(pickSeat)
  .onElicit({
    *seat(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(SeatGrid, { message: req.message }) }
    },
    *confirm(_req, ctx) {
      return { action: 'accept', content: yield* ctx.render(Confirm, {}) }
    },
  })
  .build()

/** The next emission of `component` in the store (what a person would see), once it is there. */
function shown(store: EmissionStore, component: unknown, withErrors = false): Promise<ReturnType<EmissionStore['getSnapshot']>['emissions'][number]> {
  return new Promise((resolve) => {
    const check = () => {
      const emission = store.getSnapshot().emissions.find((e) => e.component === component && (!withErrors || e.errors?.length))
      if (emission && !emission.sending) {
        unsubscribe()
        resolve(emission)
      }
    }
    const unsubscribe = store.subscribe(check)
    check()
  })
}

describe("MCP Apps: the view's session (what mountMcpAppView runs), against the server", () => {
  it("renders each question with the plugin's components, shows a refusal beside the fields, and ends with the result", async () => {
    const server = serve()
    const host = await connect(server, '2025-11-25', UI_CAPABILITIES)
    const store = createEmissionStore()
    const session = createAppViewSession({ host: { callServerTool: (params) => host.client.callTool(params, { timeout: 30_000 }) as never }, plugin: pickSeatPlugin.client, store })
    const result = host.call('pick_seat', { flight: 'JS-12' })
    session.start({ flight: 'JS-12' })

    const grid = await shown(store, SeatGrid)
    expect(grid.props).toMatchObject({ message: 'Pick a seat on JS-12' })
    grid.respond({ row: 31, letter: 'A' }) // the client-side check refuses it: the component gets the errors
    const refused = await shown(store, SeatGrid, true)
    expect(refused.errors).toEqual([expect.objectContaining({ path: 'row' })])
    refused.respond({ row: 12, letter: 'A' })
    const confirm = await shown(store, Confirm)
    expect(session.getStatus()).toMatchObject({ kind: 'question' })
    confirm.respond({ ok: true })

    expect(textOf(await result)).toBe('booked JS-12 12A')
    await new Promise<void>((resolve) => {
      const unsubscribe = session.subscribe(() => session.getStatus().kind === 'done' && (unsubscribe(), resolve()))
      if (session.getStatus().kind === 'done') resolve()
    })
    expect(session.getStatus()).toEqual({ kind: 'done', isError: false, text: 'booked JS-12 12A' })
    expect(store.getSnapshot().emissions).toEqual([])
    session.stop()
  }, 60_000)
})

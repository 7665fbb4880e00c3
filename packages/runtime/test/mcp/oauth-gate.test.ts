/**
 * `createHandler({ auth })` with a stand-in `verifyToken` (tokens named after their callers), over
 * real HTTP with the official v2 client: the protected-resource metadata, 401 and 403 answers
 * with their `WWW-Authenticate` challenges, scopes per server and per tool, `ctx.auth` in tools,
 * and what one caller starts staying theirs. The whole OAuth flow against a real authorization
 * server is in `conformance/test/oauth.test.ts`.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { createMcpServer, type McpAuth, type McpAuthOptions } from '../../src/mcp.ts'
import { FULL_CAPABILITIES } from './support/mcp-clients.ts'

const whoami = createMcpTool('whoami')
  .elicits({})
  .execute(function* (_p, ctx) {
    return { ...ctx.auth }
  })
const book = createMcpTool('book_trip')
  .scopes(['trips:write'])
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    const answer = yield* ctx.elicit('confirm', { message: 'Book it?' })
    return { booked: answer.action === 'accept', by: ctx.auth?.subject }
  })

const hour = () => Math.floor(Date.now() / 1000) + 3600
/** Tokens of the test: `<subject>|<scope>,<scope>|<audience>` (default audience: this server). */
const verifyToken =
  (resource: string) =>
  (token: string): McpAuth | undefined => {
    const [subject, scopes = '', audience = resource] = token.split('|')
    if (!subject || subject === 'forged') return undefined
    return { clientId: 'test-client', subject, scopes: scopes.split(',').filter(Boolean), expiresAt: hour(), audience, extra: { tenant: 'acme' } }
  }

const open: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of open.splice(0)) await close()
})

/** The server over HTTP on a free port, its auth's `resource` its own /mcp URL. */
async function serve(auth: Partial<McpAuthOptions> = {}) {
  const http: HttpServer = createServer()
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready))
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const resource = `${base}/mcp`
  const server = createMcpServer({ name: 'trips', version: '1', tools: [whoami, book] })
  const handler = server.createHandler({
    auth: { resource, authorizationServers: ['https://auth.example.com'], verifyToken: verifyToken(resource), requiredScopes: ['trips:read'], resourceName: 'Trips', ...auth },
  })
  http.on('request', (req, res) => void handler.node(req, res))
  open.push(async () => {
    await handler.close()
    await server.close()
    http.closeAllConnections()
    await new Promise((done) => http.close(done))
  })
  return { base, resource }
}

async function connect(resource: string, token: string, generation: '2025-11-25' | '2026-07-28' = '2026-07-28') {
  const client = new Client(
    { name: 't', version: '1' },
    { capabilities: FULL_CAPABILITIES, ...(generation === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
  )
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
  const transport = new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  await client.connect(transport)
  open.unshift(() => client.close())
  return { client, transport }
}

const post = (resource: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: JSON.stringify(body),
  })
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

describe('an MCP endpoint with OAuth', () => {
  it('publishes its protected-resource metadata (RFC 9728) at the path-aware and the root well-known URL', async () => {
    const { base, resource } = await serve()
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${base}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: ['https://auth.example.com'],
        scopes_supported: ['trips:read', 'trips:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Trips',
      })
    }
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' })).status).toBe(405)
  })

  it('answers 401 with where to get a token when there is none or it is not good, and 403 naming the scopes a token lacks', async () => {
    const { base, resource } = await serve()
    const metadata = `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
    const missing = await post(resource, undefined, initialize)
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toContain(metadata)
    // No credentials is not an invalid token (RFC 6750 §3.1): where to get one, and no error code.
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer ${metadata}, scope="trips:read"`)
    expect(((await missing.json()) as { error_description: string }).error_description).toMatch(/^This MCP endpoint needs an OAuth access token/)
    const notBearer = await fetch(resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Basic eDp5' },
      body: JSON.stringify(initialize),
    })
    expect([notBearer.status, notBearer.headers.get('www-authenticate')]).toEqual([401, expect.stringMatching(/^Bearer error="invalid_token"/)])
    const forged = await post(resource, 'forged', initialize)
    expect([forged.status, ((await forged.json()) as { error_description: string }).error_description]).toEqual([401, expect.stringMatching(/not valid/)])
    const elsewhere = await post(resource, 'ann|trips:read|https://other.example.com/mcp', initialize)
    expect(elsewhere.status).toBe(401)
    expect(((await elsewhere.json()) as { error_description: string }).error_description).toBe(`The access token was issued for https://other.example.com/mcp, not for ${resource}`)
    const unscoped = await post(resource, 'ann|', initialize)
    expect(unscoped.status).toBe(403)
    expect(unscoped.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", error_description="Insufficient scope", scope="trips:read", resource_metadata="/)
    expect((await post(resource, 'ann|trips:read', initialize)).status).toBe(200)
  })

  it("a tool's .scopes() are needed to call it: 403 naming them before anything runs, then the call goes through with them", async () => {
    const { resource } = await serve()
    const reader = await connect(resource, 'ann|trips:read')
    const refused = await reader.client.callTool({ name: 'book_trip', arguments: {} }).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(String(refused)).toMatch(/403|insufficient_scope|Insufficient scope/i)
    const listCall = await post(resource, 'ann|trips:read', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book_trip', arguments: {} } })
    expect(listCall.status).toBe(403)
    expect(listCall.headers.get('www-authenticate')).toContain('scope="trips:read trips:write"')
    const writer = await connect(resource, 'ann|trips:read,trips:write')
    const booked = (await writer.client.callTool({ name: 'book_trip', arguments: {} })) as CallToolResult
    expect(booked.structuredContent ?? JSON.parse((booked.content[0] as { text: string }).text)).toEqual({ booked: true, by: 'ann' })
  })

  it('a tool reads its caller as ctx.auth — client, subject, scopes, claims — never the token', async () => {
    const { resource } = await serve()
    for (const generation of ['2025-11-25', '2026-07-28'] as const) {
      const { client } = await connect(resource, 'ann|trips:read', generation)
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult
      const auth = result.structuredContent ?? JSON.parse((result.content[0] as { text: string }).text)
      expect(auth).toEqual({ clientId: 'test-client', subject: 'ann', scopes: ['trips:read'], expiresAt: expect.any(Number), audience: resource, extra: { tenant: 'acme' } })
      expect(JSON.stringify(result)).not.toContain('Bearer')
    }
  })

  it('what one caller starts stays theirs: another token cannot go on with its requestState, nor use its 2025-11-25 session', async () => {
    const { resource } = await serve()
    const round = (token: string, extra: Record<string, unknown>) =>
      post(
        resource,
        token,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: {
            name: 'book_trip',
            arguments: {},
            ...extra,
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': FULL_CAPABILITIES },
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'book_trip' },
      )
    const first = await round('ann|trips:read,trips:write', {})
    const asked = (await readJsonRpc(first)) as { result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> } }
    expect(asked.result.resultType).toBe('input_required')
    const answer = { inputResponses: { [Object.keys(asked.result.inputRequests)[0]!]: { action: 'accept', content: { ok: true } } }, requestState: asked.result.requestState }
    const stolen = (await readJsonRpc(await round('bob|trips:read,trips:write', answer))) as { error?: { message: string } }
    expect(stolen.error?.message).toMatch(/requestState/i)
    const own = (await readJsonRpc(await round('ann|trips:read,trips:write', answer))) as { result: { structuredContent: unknown } }
    expect(own.result.structuredContent).toEqual({ booked: true, by: 'ann' })

    const opened = await post(resource, 'ann|trips:read', initialize)
    const session = opened.headers.get('mcp-session-id')!
    expect(session).toBeTruthy()
    const ping = { jsonrpc: '2.0', id: 4, method: 'ping' }
    expect((await post(resource, 'bob|trips:read', ping, { 'mcp-session-id': session })).status).toBe(404)
    expect((await post(resource, 'ann|trips:read', ping, { 'mcp-session-id': session })).status).toBe(200)
  })

  it('checks its options where the handler is made, naming each problem', () => {
    const server = createMcpServer({ name: 'trips', version: '1', tools: [whoami] })
    open.push(() => server.close())
    const make = (auth: Partial<McpAuthOptions>) => () =>
      server.createHandler({ auth: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'], verifyToken: () => undefined, ...auth } })
    expect(make({ resource: 'mcp.example.com' })).toThrow(/auth\.resource: an http\(s\) URL without a #fragment, e\.g\. "https:\/\/mcp\.example\.com\/mcp"/)
    expect(make({ resource: 'http://mcp.example.com/mcp' })).toThrow(/auth\.resource: https \(plain http only on localhost \/ 127\.0\.0\.1\)/)
    expect(make({ authorizationServers: [] })).toThrow(/auth\.authorizationServers: name at least one authorization server/)
    expect(make({ requiredScopes: ['two words'] })).toThrow(/auth\.requiredScopes\.0: an OAuth scope/)
    expect(make({ verifyToken: 'secret' as never })).toThrow(/auth\.verifyToken/)
    expect(() => createMcpTool('x').scopes(['a b'])).toThrow(/\.scopes\(\) takes a list of OAuth scopes/)
  })
})

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
async function readJsonRpc(response: Response): Promise<unknown> {
  const text = await response.text()
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim())
      .filter(Boolean)
    return JSON.parse(data.at(-1)!)
  }
  return JSON.parse(text)
}

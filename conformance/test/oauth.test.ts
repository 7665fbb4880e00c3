/**
 * The MCP authorization flow end to end, with real parts on both sides: the official v2 client's
 * OAuth support against the OAuth app (`../oauth-app.ts`, mcp-bridge behind `createHandler({ auth })`)
 * and a real authorization server (`oidc-provider`, run on Node 22 by `support/authorization-server.mjs`).
 *
 *   401 → protected-resource metadata → authorization-server metadata → dynamic registration →
 *   authorization code with PKCE (a person signs in on the server's login page) → token for this
 *   resource → `tools/call`, the tool reading its caller as `ctx.auth`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOAuthApp } from '../oauth-app.ts'
import { node22, root } from './support/node22.ts'

let authorizationServer: ChildProcess
let issuer: string
let app: Awaited<ReturnType<typeof startOAuthApp>>

beforeAll(async () => {
  authorizationServer = spawn(node22(), [join(dirname(fileURLToPath(import.meta.url)), 'support/authorization-server.mjs')], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
  const lines = createInterface({ input: authorizationServer.stdout! })
  issuer = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => line.startsWith('{') && resolve((JSON.parse(line) as { issuer: string }).issuer))
    authorizationServer.once('exit', (code) => reject(new Error(`the authorization server exited (${code}) before it listened`)))
  })
  app = await startOAuthApp(issuer)
}, 300_000)
afterAll(async () => {
  await app?.close()
  authorizationServer?.stdin?.end()
  authorizationServer?.kill()
})

const REDIRECT = 'http://127.0.0.1:9/callback'

/** An MCP client's OAuth state, kept in memory: its registration, tokens, PKCE verifier, and where it was sent to sign in. */
class TestOAuthProvider implements OAuthClientProvider {
  registration: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>
  saved: Awaited<ReturnType<OAuthClientProvider['tokens']>>
  verifier = ''
  signInAt: URL | undefined
  get redirectUrl(): string {
    return REDIRECT
  }
  get clientMetadata() {
    // A native app's loopback redirect (RFC 8252), as desktop MCP clients register.
    return {
      client_name: 'mcp-bridge OAuth test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientProvider['clientMetadata']
  }
  clientInformation() {
    return this.registration
  }
  saveClientInformation(info: NonNullable<TestOAuthProvider['registration']>) {
    this.registration = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: NonNullable<TestOAuthProvider['saved']>) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.signInAt = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  // Kept like the verifier (it outlives the redirect): the code is exchanged with the server it was issued by (SEP-2352).
  discovery: Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0] | undefined
  saveDiscoveryState(state: NonNullable<TestOAuthProvider['discovery']>) {
    this.discovery = state
  }
  discoveryState() {
    return this.discovery
  }
  codeVerifier() {
    return this.verifier
  }
}

/**
 * A person signing in: follows the authorization request through the server's login page (its
 * development login takes any name) to the redirect, and returns the authorization code.
 */
async function signIn(at: URL, login: string): Promise<[code: string, iss: string | undefined]> {
  const cookies = new Map<string, string>()
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    })
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';', 1)[0]!
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
    }
    return response
  }
  let response = await go(at.href)
  for (let hop = 0; hop < 12; hop++) {
    const location = response.headers.get('location')
    if (location) {
      const next = new URL(location, at)
      if (next.href.startsWith(REDIRECT)) {
        const code = next.searchParams.get('code')
        if (!code) throw new Error(`the authorization server refused: ${next.searchParams.get('error')}: ${next.searchParams.get('error_description')}`)
        // The issuer comes with the code (RFC 9207): the client checks it is the one it asked.
        return [code, next.searchParams.get('iss') ?? undefined]
      }
      response = await go(next.href)
      continue
    }
    // A page: the login form (any name), or a confirmation. Its fields are posted as they are.
    const html = await response.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action) throw new Error(`no form on the page at hop ${hop} (status ${response.status}): ${html.slice(0, 300)}`)
    const form = new URLSearchParams()
    for (const input of html.matchAll(/<input([^>]*)>/g)) {
      const name = /name="([^"]+)"/.exec(input[1]!)?.[1]
      if (name) form.set(name, /value="([^"]*)"/.exec(input[1]!)?.[1] ?? '')
    }
    if (form.has('login')) {
      form.set('login', login)
      form.set('password', 'anything')
    }
    response = await go(new URL(action, at).href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })
  }
  throw new Error('the sign-in did not end at the redirect')
}

/** The client's HTTP requests, as method, path and status. */
function watched(): { fetch: typeof fetch; seen: string[] } {
  const seen: string[] = []
  return {
    seen,
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      const url = new URL(String(input instanceof Request ? input.url : input))
      seen.push(`${init?.method ?? 'GET'} ${url.origin === new URL(issuer).origin ? 'AS' : 'MCP'}${url.pathname} ${response.status}`)
      return response
    },
  }
}

describe('OAuth: an MCP client signs in at a real authorization server and calls tools as its user', () => {
  for (const generation of ['2026-07-28', '2025-11-25'] as const) {
    it(`${generation}: 401 → metadata → registration → PKCE → token → tools/call; the tool knows whom it serves`, async () => {
      const provider = new TestOAuthProvider()
      const http = watched()
      const connect = async () => {
        const client = new Client(
          { name: 'oauth-test', version: '1' },
          { capabilities: { elicitation: { form: {} } }, ...(generation === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
        )
        client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }))
        const transport = new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider, fetch: http.fetch })
        await client.connect(transport)
        return { client, transport }
      }
      // No token yet: the server says where to get one, and the client goes to sign in.
      const transport = new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider, fetch: http.fetch })
      const first = new Client(
        { name: 'oauth-test', version: '1' },
        { capabilities: {}, ...(generation === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) },
      )
      await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
      expect(provider.signInAt?.origin).toBe(new URL(issuer).origin)
      expect(provider.signInAt?.searchParams.get('code_challenge_method')).toBe('S256')
      expect(provider.signInAt?.searchParams.get('resource')).toBe(app.url)
      expect(provider.registration?.client_id).toBeTruthy()
      await transport.finishAuth(...(await signIn(provider.signInAt!, 'ann')))
      expect(provider.saved?.access_token).toBeTruthy()

      const { client } = await connect()
      const me = await client.callTool({ name: 'whoami', arguments: {} })
      expect(me.structuredContent ?? JSON.parse((me.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ clientId: provider.registration!.client_id, subject: 'ann' })
      const trip = await client.callTool({ name: 'book_trip', arguments: { city: 'Oslo' } })
      expect(trip.isError).toBeFalsy()
      expect(trip.structuredContent ?? JSON.parse((trip.content as Array<{ text: string }>)[0]!.text)).toEqual({ booked: true, city: 'Oslo', for: 'ann' })
      await client.close()

      // The path the client took, as the servers saw it.
      const steps = http.seen
      expect(steps[0]).toMatch(/^(POST|GET) MCP\/mcp 401$/)
      expect(steps).toContain('GET MCP/.well-known/oauth-protected-resource/mcp 200')
      expect(steps.some((s) => /^GET AS\/\.well-known\/(oauth-authorization-server|openid-configuration) 200$/.test(s))).toBe(true)
      expect(steps).toContain('POST AS/reg 201')
      expect(steps).toContain('POST AS/token 200')
      // With the token, every request of the client is served.
      const afterToken = steps.slice(steps.indexOf('POST AS/token 200') + 1).filter((s) => s.includes(' MCP/mcp '))
      expect(afterToken.length).toBeGreaterThan(2)
      for (const step of afterToken) expect(step).toMatch(/ 20[02]$/)
    }, 120_000)
  }

  it('a token the authorization server issued for another resource is refused (401), and so is one it never issued', async () => {
    const other = await startOAuthApp(issuer)
    try {
      const provider = new TestOAuthProvider()
      const transport = new StreamableHTTPClientTransport(new URL(other.url), { authProvider: provider })
      await expect(new Client({ name: 'oauth-test', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
      await transport.finishAuth(...(await signIn(provider.signInAt!, 'bob')))
      const token = provider.saved!.access_token
      const post = (url: string, bearer: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
          }),
        })
      expect((await post(other.url, token)).status).toBe(200)
      const elsewhere = await post(app.url, token)
      expect(elsewhere.status).toBe(401)
      expect(elsewhere.headers.get('www-authenticate')).toContain(`resource_metadata="${new URL(app.url).origin}/.well-known/oauth-protected-resource/mcp"`)
      const [header, body] = token.split('.')
      expect((await post(app.url, `${header}.${body}.${'A'.repeat(43)}`)).status).toBe(401)
    } finally {
      await other.close()
    }
  }, 120_000)
})

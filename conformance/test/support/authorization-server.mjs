/**
 * A real OAuth 2.1 / OpenID Connect authorization server for the OAuth test: `oidc-provider`
 * (the certified Node implementation; it needs Node 22, so the test runs this file on it), on
 * 127.0.0.1 at a free port. It does what an MCP client expects of one: metadata discovery,
 * dynamic client registration, authorization code with PKCE, resource indicators (RFC 8707: the
 * access token is a JWT for the MCP server it names), refresh tokens. People sign in through its
 * development login page with any name; consent is granted as asked.
 *
 * Prints `{"issuer": "..."}` on its first line once it listens; stops when its stdin closes.
 */
import { createServer } from 'node:http'
import Provider from 'oidc-provider'

const SCOPES = ['trips:read', 'trips:write']

const server = createServer()
await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
const issuer = `http://127.0.0.1:${server.address().port}`

const provider = new Provider(issuer, {
  clients: [],
  scopes: ['openid', 'offline_access', ...SCOPES],
  claims: { openid: ['sub'] },
  cookies: { keys: ['a test key that is long enough for cookies'] },
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // The MCP server the client names (`resource`) gets a JWT it can check with this issuer's keys.
      getResourceServerInfo: (_ctx, resource) => ({ scope: SCOPES.join(' '), audience: resource, accessTokenTTL: 3600, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
    },
  },
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  // Consent as asked: the grant holds the scopes and the resource of the request.
  async loadExistingGrant(ctx) {
    const { Grant } = ctx.oidc.provider
    const existing = ctx.oidc.session?.grantIdFor(ctx.oidc.client.clientId)
    const grant = (existing && (await Grant.find(existing))) || new Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId })
    const asked = String(ctx.oidc.params.scope ?? '').split(' ').filter(Boolean)
    grant.addOIDCScope(asked.filter((s) => !SCOPES.includes(s)).join(' ') || 'openid')
    const resource = ctx.oidc.params.resource
    if (resource) grant.addResourceScope(resource, asked.filter((s) => SCOPES.includes(s)).join(' '))
    await grant.save()
    return grant
  },
  // Registered clients may send PKCE public-client requests (no secret), as MCP clients do.
  clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
})
provider.proxy = false
server.on('request', provider.callback())

console.log(JSON.stringify({ issuer }))
process.stdin.resume()
process.stdin.on('end', () => server.close(() => process.exit(0)))
process.stdin.on('close', () => process.exit(0))

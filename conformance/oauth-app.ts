/**
 * An MCP server behind OAuth, as a user of mcp-bridge would write one (the docs' "OAuth"
 * section shows this file): its tokens come from an authorization server of your choice, and
 * are JWTs checked with that server's published keys (`jose`). `whoami` reads the caller;
 * `book_trip` needs the `trips:write` scope and asks the person before it books.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { z } from 'zod'
import { createMcpTool } from '@mcp-bridge/runtime'
import { createMcpServer, type McpAuth } from '@mcp-bridge/runtime/mcp'

const whoami = createMcpTool('whoami')
  .description('Who is calling: the OAuth client and the person it acts for')
  .elicits({})
  .execute(function* (_params, ctx) {
    return { clientId: ctx.auth?.clientId, subject: ctx.auth?.subject, scopes: ctx.auth?.scopes }
  })

const bookTrip = createMcpTool('book_trip')
  .description('Book a trip (needs the trips:write scope)')
  .scopes(['trips:write'])
  .parameters(z.object({ city: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* ({ city }, ctx) {
    const answer = yield* ctx.elicit.strict('confirm', { message: `Book a trip to ${city}?` })
    return { booked: answer.ok, city, for: ctx.auth?.subject }
  })

/** Serve the app at http://127.0.0.1:<port>/mcp, taking tokens that `issuer` issued for it. */
export async function startOAuthApp(issuer: string, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer()
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve))
  const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`

  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`))
  async function verifyToken(token: string): Promise<McpAuth | undefined> {
    try {
      // Signed by the issuer, for this server (its audience), not expired.
      const { payload } = await jwtVerify(token, keys, { issuer, audience: resource })
      return {
        clientId: String(payload.client_id),
        ...(payload.sub !== undefined && { subject: payload.sub }),
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        expiresAt: payload.exp!,
        audience: payload.aud!,
      }
    } catch {
      return undefined
    }
  }

  const mcp = createMcpServer({ name: 'trips', version: '1.0.0', tools: [whoami, bookTrip] })
  const handler = mcp.createHandler({ auth: { resource, authorizationServers: [issuer], verifyToken, resourceName: 'Trips' } })
  http.on('request', handler.node)
  return {
    url: resource,
    async close() {
      await handler.close()
      await mcp.close()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    },
  }
}

/**
 * The resources of `createMcpServer({ resources })` and the MCP Apps views (`ui://…`), on one set
 * of handlers: `resources/list` (the static ones and the views), `resources/templates/list`,
 * `resources/read` (a static resource, then the first template that matches, then a view; an
 * unknown URI is "resource not found" — -32002, which the 2026-07-28 codec sends as -32602 — naming
 * what there is, with `data.uri`), and `resources/subscribe` / `unsubscribe`, kept
 * per session so `notifyResourceUpdated(uri)` reaches the clients that asked.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { McpResource } from '../resource/create-mcp-resource.ts'
import { MCP_APP_MIME_TYPE, type ResolvedAppViews } from './app-views.ts'
import { refuseCursor } from './one-page.ts'

export function serveResources(
  server: McpServer['server'],
  {
    resources,
    apps,
    subscriptions,
    onError,
  }: { resources: readonly McpResource[]; apps: ResolvedAppViews | undefined; subscriptions: Set<string>; onError: (error: Error) => void },
): void {
  const statics = resources.filter((r) => !r.isTemplate)
  const templates = resources.filter((r) => r.isTemplate)
  const listed = (r: McpResource) => ({
    name: r.name,
    ...(r.title !== undefined && { title: r.title }),
    ...(r.description !== undefined && { description: r.description }),
    ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
  })
  server.setRequestHandler('resources/list', async (request) => {
    refuseCursor(request.params?.cursor, 'resource')
    return {
      resources: [
        ...statics.map((r) => ({ uri: r.uri, ...listed(r) })),
        ...[...(apps?.uris ?? [])].map(([tool, uri]) => ({ uri, name: `${tool} view`, mimeType: MCP_APP_MIME_TYPE })),
      ],
    }
  })
  server.setRequestHandler('resources/templates/list', async (request) => {
    refuseCursor(request.params?.cursor, 'resource template')
    return { resourceTemplates: templates.map((r) => ({ uriTemplate: r.uri, ...listed(r) })) }
  })
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params
    for (const resource of [...statics, ...templates]) {
      const values = resource.match(uri)
      if (!values) continue
      try {
        return { contents: await resource.read(uri, values) }
      } catch (error) {
        if (!(error instanceof McpBridgeError)) onError(error instanceof Error ? error : new Error(String(error)))
        throw new ProtocolError(ProtocolErrorCode.InternalError, error instanceof McpBridgeError ? error.message : `Resource "${uri.slice(0, 200)}" could not be read.`)
      }
    }
    const html = apps ? await apps.html(uri) : undefined
    // A view needs nothing from the network (the Vite plugin inlines every script and style): its CSP asks for no domains.
    if (html !== undefined) {
      return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: html, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } } }] }
    }
    const known = [...statics.map((r) => r.uri), ...templates.map((r) => r.uri), ...(apps?.uris.values() ?? [])]
    // `data.uri`, as the spec's resource-not-found error carries it: a client tells which of its reads failed.
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Unknown resource "${uri.slice(0, 200)}". This server has: ${known.join(', ') || 'none'}.`, { uri })
  })
  server.setRequestHandler('resources/subscribe', async (request) => {
    subscriptions.add(request.params.uri)
    return {}
  })
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscriptions.delete(request.params.uri)
    return {}
  })
}

/**
 * The dev panel at `/__mcp-bridge/`, in `vite dev` only (the plugin mounts it in
 * `configureServer`; a build never contains it): every discovered tool with its schemas and
 * diagnostics (the last generation), the app server's calls with their timelines (its chat
 * handler's devtools), and — as the developer — answering a waiting question or cancelling a call.
 *
 * The state-changing routes take only JSON from this dev server's own pages: a cross-site page
 * cannot send `application/json` without a preflight this server never grants, and an `Origin`
 * that is not this server's is refused.
 */
import { isMcpBridgeError } from '@mcp-bridge/runtime/errors'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { AppServer } from '@mcp-bridge/runtime/server'
import type { Diagnostic } from '../core/diagnostics.ts'
import { PANEL_HTML } from './panel-module.ts'

export const PANEL_PATH = '/__mcp-bridge/'

/** What the chat handler's devtools give (`@mcp-bridge/runtime/server`'s `ChatDevtools`), as the panel uses it. */
interface Devtools {
  store: string
  calls(): Array<{
    callId: string
    tool: string
    live: boolean
    status: string
    pending?: { key: string; message: string; schema: { json: unknown } }
    origin?: unknown
    timeline: unknown[]
  }>
  answer(callId: string, result: unknown): Promise<unknown>
  cancel(callId: string): Promise<unknown>
}

export interface PanelSources {
  /** The manifest and diagnostics of the last generation, if one ran. */
  generated(): { manifest: string; diagnostics: readonly Diagnostic[] } | undefined
  /** The app server (the plugin's `server` option), loaded as the chat path loads it; undefined without one. */
  app: (() => Promise<AppServer>) | undefined
}

export function panelMiddleware(vite: ViteDevServer, sources: PanelSources) {
  const devtools = async (): Promise<Devtools | undefined> => {
    if (!sources.app) return undefined
    const app = await sources.app()
    const tools = (app.chat as unknown as { devtools?: Devtools }).devtools
    return tools
  }
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (!url.pathname.startsWith(PANEL_PATH.slice(0, -1))) return next()
    try {
      if (url.pathname === PANEL_PATH.slice(0, -1) || url.pathname === PANEL_PATH) {
        const html = await vite.transformIndexHtml(req.url ?? PANEL_PATH, PANEL_HTML)
        return send(res, 200, html, 'text/html; charset=utf-8')
      }
      if (url.pathname === `${PANEL_PATH}api/state` && req.method === 'GET') {
        const generated = sources.generated()
        const tools = await devtools().catch(() => undefined)
        const manifest = generated ? (JSON.parse(generated.manifest) as { tools: unknown[] }) : { tools: [] }
        const calls = (tools?.calls() ?? []).map((call) => ({
          callId: call.callId,
          tool: call.tool,
          live: call.live,
          status: call.status,
          conversation: (call.origin as { conversation?: unknown } | undefined)?.conversation ?? null,
          pending: call.pending ? { key: call.pending.key, message: call.pending.message, schema: call.pending.schema.json } : null,
          timeline: call.timeline,
        }))
        return json(res, 200, { store: tools?.store ?? null, tools: manifest.tools, diagnostics: generated?.diagnostics ?? [], calls })
      }
      const action = /^\/__mcp-bridge\/api\/calls\/([^/]+)\/(answer|cancel)$/.exec(url.pathname)
      if (action && req.method === 'POST') {
        const refusal = foreignRequest(req)
        if (refusal) return json(res, 403, { ok: false, code: 'FORBIDDEN', message: refusal })
        const tools = await devtools()
        if (!tools)
          return json(res, 404, {
            ok: false,
            code: 'NO_APP_SERVER',
            message: 'This app has no server with a chat handler (mcpBridge({ server })), so there are no calls to answer.',
          })
        const callId = decodeURIComponent(action[1]!)
        const outcome = action[2] === 'answer' ? await tools.answer(callId, JSON.parse(await body(req))) : await tools.cancel(callId)
        return json(res, 200, outcome)
      }
      return json(res, 404, { ok: false, code: 'NOT_FOUND', message: `No ${url.pathname} in the dev panel.` })
    } catch (error) {
      // As every surface says a failure: a code and a sentence to the page; the details (a store's
      // address, a stack) to the dev server's terminal.
      vite.config.logger.error(`[mcp-bridge] the dev panel's ${req.method} ${url.pathname} failed: ${(error as Error).stack ?? String(error)}`)
      const code = isMcpBridgeError(error) ? error.code : 'PANEL_FAILED'
      return json(res, 500, { ok: false, code, message: "The dev panel could not do that; the details are in the dev server's terminal." })
    }
  }
}

/** Why a state-changing request is not from this dev server's own pages, if it is not. */
function foreignRequest(req: IncomingMessage): string | undefined {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return 'Send application/json.'
  const origin = req.headers.origin
  if (origin !== undefined && new URL(origin).host !== req.headers.host) return `Origin ${origin} is not this dev server.`
  return undefined
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      text += chunk
      if (text.length > 1 << 20) req.destroy(new Error('The answer is larger than 1 MiB.'))
    })
    req.on('end', () => resolve(text || '{}'))
    req.on('error', reject)
  })
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json')
}

function send(res: ServerResponse, status: number, text: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  res.end(text)
}

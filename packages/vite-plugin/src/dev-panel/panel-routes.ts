/**
 * The dev panel at `/__mcp-bridge/`, in `vite dev` only (the plugin mounts it in
 * `configureServer`; a build never contains it): every discovered tool with its schemas and
 * diagnostics (the last generation), the app server's calls with their timelines (its chat
 * handler's devtools), and — as the developer — answering a waiting question or cancelling a call.
 *
 * Every route answers only the developer: on this machine, from the panel's own page
 * (`panel-guard.ts`). The state-changing routes also take only JSON: a cross-site page cannot
 * send `application/json` without a preflight this server never grants.
 */
import { isMcpBridgeError } from '@mcp-bridge/runtime/errors'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { AppServer } from '@mcp-bridge/runtime/server'
import type { Diagnostic } from '../core/diagnostics.ts'
import { PANEL_HTML } from './panel-module.ts'
import { panelRequestProblem } from './panel-guard.ts'

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
    // Only the developer, on this machine, from the panel's page (`panel-guard.ts`).
    const refused = panelRequestProblem(req)
    if (refused) return json(res, 403, { ok: false, code: 'FORBIDDEN', message: refused })
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
        if (!isJson(req)) return json(res, 415, { ok: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the request as application/json.' })
        const tools = await devtools()
        if (!tools)
          return json(res, 404, {
            ok: false,
            code: 'NO_APP_SERVER',
            message: 'This app has no server with a chat handler (mcpBridge({ server })), so there are no calls to answer.',
          })
        const callId = decodeURIComponent(action[1]!)
        if (action[2] === 'cancel') return json(res, 200, await tools.cancel(callId))
        const answer = await answerOf(req)
        if ('problem' in answer) return json(res, answer.status, { ok: false, code: answer.code, message: answer.problem })
        return json(res, 200, await tools.answer(callId, answer.value))
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

/** A state-changing request must be JSON: a form on another site cannot send it without a preflight, which this server never grants. */
function isJson(req: IncomingMessage): boolean {
  return /^application\/json\b/i.test(req.headers['content-type'] ?? '')
}

/** The largest answer the panel reads. */
const MAX_ANSWER_BYTES = 1 << 20

/** An answer's body as JSON; a client's mistake (too large, not JSON) as its status and a sentence. */
async function answerOf(req: IncomingMessage): Promise<{ value: unknown } | { status: number; code: string; problem: string }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) {
      req.resume() // the rest is read and dropped, so the response goes out on a connection still in step
      return { status: 413, code: 'TOO_LARGE', problem: `The answer is larger than ${MAX_ANSWER_BYTES} bytes; nothing was sent to the call.` }
    }
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return { value: JSON.parse(text || '{}') }
  } catch (error) {
    return {
      status: 400,
      code: 'BAD_REQUEST',
      problem: `The answer is not JSON (${(error as Error).message}); send { "action": "accept", "content": { ... } }. Nothing was sent to the call.`,
    }
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json')
}

function send(res: ServerResponse, status: number, text: string, type: string): void {
  // Vite's CORS middleware granted localhost pages a read before this ran: the panel grants none.
  res.removeHeader('access-control-allow-origin')
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  res.end(text)
}

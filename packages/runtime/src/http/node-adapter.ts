/**
 * Serve a fetch-style handler from Node's `http` server or Vite's dev-server middleware.
 * Streams the response body as it is produced. When the client leaves, the request's signal
 * aborts and the response body is cancelled, so the handler stops producing it (a chat turn
 * stops talking to the model) instead of writing into a closed socket.
 */
import { forClient } from '../errors/client-errors.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { recordClientAddress } from './client-address.ts'

/**
 * A fetch-style handler: `(request: Request) => Promise<Response>`.
 */
export type FetchHandler = (request: Request) => Promise<Response>

/** Methods the Fetch API refuses to build a Request for; no handler can serve them. */
const UNSERVABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/**
 * A Node `http` request listener from a fetch handler: the request body streams in, the response streams out,
 * and a client that goes away aborts the request's signal.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { toNodeListener } from '@mcp-bridge/runtime/server'
 * import { chat } from './chat.ts'
 *
 * createServer(toNodeListener(chat)).listen(3000, '127.0.0.1')
 * ```
 */
export function toNodeListener(handler: FetchHandler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase()
    if (UNSERVABLE_METHODS.has(method)) {
      res.writeHead(405, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code: 'METHOD_NOT_ALLOWED', message: `${method} is not served here.` }))
      return
    }
    const url = requestUrl(req)
    if (!url) {
      // A client's mistake, said as one (400), not a server failure: nothing was run.
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          code: 'BAD_REQUEST',
          message: `The request's Host header (${JSON.stringify((req.headers.host ?? '').slice(0, 100))}) or path is not a valid URL; send a host name (and port) and a path. Nothing was run.`,
        }),
      )
      return
    }
    const controller = new AbortController()
    // `close` also follows a completed response; aborting then is harmless.
    res.on('close', () => controller.abort())
    try {
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) value.forEach((v) => headers.append(name, v))
        else if (value !== undefined) headers.set(name, value)
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      const request = new Request(url, {
        method: req.method ?? 'GET',
        headers,
        signal: controller.signal,
        ...(hasBody && { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }),
      } as RequestInit)
      recordClientAddress(request, req.socket?.remoteAddress)
      const response = await handler(request)
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (!response.body) return void res.end()
      // A stream's headers go out now, not with its first chunk: an SSE stream with nothing to say
      // yet (an MCP GET stream) is open for the client at once.
      res.flushHeaders()
      const reader = response.body.getReader()
      const leave = () => void reader.cancel('the client went away').catch(() => {})
      res.once('close', leave)
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done || res.destroyed) break
          if (!res.write(value)) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)))
        }
      } finally {
        res.off('close', leave)
      }
      res.end()
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify(forClient(error, `${req.method} ${req.url} failed before its response began`)))
      } else res.destroy(error as Error)
    }
  }
}

/** The request's URL from its path and `Host`, or `undefined` when they do not make one (a malformed Host). */
function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`)
  } catch {
    return undefined
  }
}

/**
 * Connect-style middleware for `server.middlewares.use(...)` in a Vite plugin.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { chatMiddleware } from '@mcp-bridge/runtime/server'
 * import { chat } from './chat.ts'
 *
 * express().use(chatMiddleware(chat, { path: '/api/chat' })).listen(3000, '127.0.0.1')
 * ```
 */
export function chatMiddleware(handler: FetchHandler, options: { path?: string } = {}) {
  const path = options.path ?? '/api/chat'
  const listener = toNodeListener(handler)
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const pathname = (req.url ?? '').split('?')[0]
    if (pathname !== path) return next()
    listener(req, res).catch(next)
  }
}

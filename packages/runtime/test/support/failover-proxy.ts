/**
 * A load balancer in miniature, for kill trials: one address on 127.0.0.1 that forwards every
 * request to the instance `target` names now. Point it at another instance when one is killed —
 * what a balancer does when its health check fails — and clients keep their URL. A response cut by
 * the kill is cut for the client too (its socket is destroyed), as a dead backend's would be.
 */
import { createServer, request as forward, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FailoverProxy {
  /** The address clients use. */
  readonly url: string
  /** Send requests from now on to `base` (e.g. http://127.0.0.1:1234). */
  target(base: string): void
  close(): Promise<void>
}

export async function startFailoverProxy(initial: string): Promise<FailoverProxy> {
  let base = new URL(initial)
  const server: Server = createServer((req, res) => {
    const upstream = forward({ host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
      answer.once('error', () => res.destroy())
      answer.once('aborted', () => res.destroy())
    })
    upstream.once('error', () => {
      // The instance died: before it answered, the client gets a 502; after, its stream is cut.
      if (res.headersSent) res.destroy()
      else res.writeHead(502).end()
    })
    req.pipe(upstream)
    res.once('close', () => upstream.destroy())
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    target: (next) => void (base = new URL(next)),
    close: async () => {
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    },
  }
}

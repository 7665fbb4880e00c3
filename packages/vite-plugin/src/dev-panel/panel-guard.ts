/**
 * Who may use the dev panel: the developer, on the machine that runs the dev server. The panel
 * lists every call (questions, answers, the conversations they belong to) and answers and cancels
 * them without a call's token, so a request must
 *
 *   - name this machine: its `Host` a loopback name, as the chat endpoint requires by default
 *     (with `vite --host` the LAN reaches the dev server — and the app's chat, if its allowedHosts
 *     say so — but never the panel);
 *   - come from the panel's own page, or from no page at all (curl): an `Origin`, or a browser's
 *     `Sec-Fetch-Site`, of another origin is refused — Vite's CORS lets every localhost page read
 *     what its dev server answers, and the panel answers no other page.
 */
import type { IncomingMessage } from 'node:http'
import { isLoopbackHost } from '@mcp-bridge/runtime/build'

/** Why `req` may not use the panel, as a sentence that says where it can be opened; undefined when it may. */
export function panelRequestProblem(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? ''
  if (!isLoopbackHost(host)) {
    return `The dev panel answers only on the machine that runs the dev server (Host "${host.slice(0, 100)}" is not a loopback name): open http://localhost:<port>/__mcp-bridge/ there.`
  }
  const site = req.headers['sec-fetch-site']
  if (site === 'cross-site' || site === 'same-site') return `The dev panel answers only its own page (this request came from another site: Sec-Fetch-Site ${site}).`
  const origin = req.headers.origin
  if (origin !== undefined && originHost(origin) !== host.toLowerCase()) return `The dev panel answers only its own page, not ${origin.slice(0, 100)}.`
  return undefined
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase()
  } catch {
    return undefined
  }
}

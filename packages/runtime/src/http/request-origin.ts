/**
 * Who may drive a server from a browser. Checked on every request of the chat handler and the
 * MCP HTTP handler, before anything else (the MCP spec: servers MUST validate `Origin`):
 *
 *   - `Host` must name this server: by default a loopback name, so a page whose DNS name was
 *     rebound to 127.0.0.1 (`Host: evil.example`) is refused; list your real host names in
 *     `allowedHosts` when you deploy (`true` turns the check off, e.g. behind a proxy that checks);
 *   - `Origin`, when a browser sends one, must be the server's own origin or a loopback origin,
 *     or be listed in `allowedOrigins` (`true`: any). Requests without `Origin` (curl, SDK
 *     clients, server-to-server) are not browser pages and pass.
 *
 * A refusal (a 403 from the handler) names the header, the value and the option to change.
 */
import { z } from 'zod/v4'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'
import { OptionsError } from '../errors/options-error.ts'
import { hostnameOf, isLoopback } from './loopback-host.ts'

export interface RequestOriginOptions {
  /** Host names this server answers to (no port). Default: `localhost`, `127.0.0.1`, `[::1]`, `*.localhost`. */
  allowedHosts?: readonly string[] | true
  /** Browser origins allowed besides the server's own, e.g. `https://app.example.com`. Default: loopback origins. */
  allowedOrigins?: readonly string[] | true
}

const listOrAll = z.union([z.literal(true), z.array(z.string().min(1, 'an empty name matches nothing'))])
export const requestOriginOptionsSchema = z.object({ allowedHosts: listOrAll.optional(), allowedOrigins: listOrAll.optional() })

/** Checks the options once, where a server is created. `where` names the call in messages. */
export function resolveRequestOrigin(options: RequestOriginOptions, where: string): RequestOriginOptions {
  const parsed = requestOriginOptionsSchema.safeParse({ allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins })
  if (!parsed.success) {
    const issues = summarizeIssues(parsed.error.issues)
    throw new OptionsError(where, { option: issues[0]?.path, problem: `${formatIssues(issues)} (give a list of names, e.g. ['chat.example.com'], or true for any)` })
  }
  return parsed.data
}

/** Why a request comes from a host or origin this server does not serve; `undefined` to go on. */
export function foreignRequestProblem(request: Request, options: RequestOriginOptions): string | undefined {
  const host = request.headers.get('host') ?? new URL(request.url).host
  const hostname = hostnameOf(host)
  if (options.allowedHosts !== true) {
    const allowed = options.allowedHosts ? options.allowedHosts.map((h) => h.toLowerCase()).includes(hostname) : isLoopback(hostname)
    if (!allowed) {
      return `Host "${host}" is not served here (DNS-rebinding protection). If this is your server's name, add "${hostname}" to allowedHosts.`
    }
  }
  const origin = request.headers.get('origin')
  if (origin === null || options.allowedOrigins === true) return undefined
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return `Origin "${origin.slice(0, 200)}" is not an origin.`
  }
  const sameOrigin = url.host.toLowerCase() === host.toLowerCase()
  const listed = options.allowedOrigins?.includes(url.origin) ?? false
  if (sameOrigin || listed || (!options.allowedOrigins && isLoopback(url.hostname.toLowerCase()))) return undefined
  return `Pages from ${url.origin} may not use this server. If they should, add "${url.origin}" to allowedOrigins.`
}

/**
 * CORS for a request `foreignRequestProblem` let through from a page of another origin (one in
 * `allowedOrigins`): the headers that let that page read the response, and answer its
 * preflight. Empty for requests without `Origin` or from the server's own origin.
 */
export function crossOriginHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get('origin')
  if (origin === null) return {}
  const host = request.headers.get('host') ?? new URL(request.url).host
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return {}
  }
  if (url.host.toLowerCase() === host.toLowerCase()) return { vary: 'Origin' }
  return { 'access-control-allow-origin': url.origin, vary: 'Origin' }
}

/** The answer to a CORS preflight (`OPTIONS`) of a page allowed to use this endpoint. */
export function preflightResponse(cors: Record<string, string>, methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: { ...cors, 'access-control-allow-methods': methods, 'access-control-allow-headers': 'content-type, authorization', 'access-control-max-age': '600' },
  })
}

/**
 * A per-client token bucket: each client may make `burst` requests at once and `perSecond` on
 * average. Buckets are kept for at most `maxClients` clients (the least recently seen go first),
 * so a flood from many addresses costs bounded memory — a forgotten client starts with a full
 * bucket, which is what it would have had anyway after a pause.
 *
 * Clients are told apart as the endpoints' own limits tell them (`clientKey`: by default the
 * address's network, an IPv6 /64), so rotating addresses inside one's own network does not escape.
 */
import type { Clock } from '../time/clock.ts'
import { defaultClientKey, type ClientKey } from './client-address.ts'
import type { FetchHandler } from './node-adapter.ts'

/**
 * A token bucket per client: `requestsPerSecond` on average, with bursts up to `burst`.
 */
export interface RateLimit {
  /** Average requests per second one client may make. */
  requestsPerSecond: number
  /** Requests one client may make at once (default: twice the rate, at least 1). */
  burst?: number
}

/**
 * What `serveApp` allows each client on the chat and MCP paths unless told otherwise: generous
 * for people and agents (a turn is one request; a page load a handful), tight enough that one
 * client's flood is refused cheaply instead of served.
 */
export const DEFAULT_RATE_LIMIT: Required<RateLimit> = { requestsPerSecond: 50, burst: 200 }

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number }

/**
 * A per-client limiter: its decision for one more request of `client` costing `cost` tokens
 * (default 1). `always`: take them even when short — the bucket goes below zero, and the client
 * waits that off (a cost known only after the work, such as the bytes of a response).
 */
export type RateLimiter = (client: string, cost?: number, always?: boolean) => RateDecision

export function createRateLimiter(limit: RateLimit, clock: Clock, maxClients = 10_000): RateLimiter {
  const rate = limit.requestsPerSecond / 1000
  const burst = limit.burst ?? Math.max(1, Math.ceil(limit.requestsPerSecond * 2))
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (client, cost = 1, always = false) => {
    const now = clock.now()
    const bucket = buckets.get(client) ?? { tokens: burst, at: now }
    buckets.delete(client) // re-inserted below: the map's order is least recently seen first
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * rate)
    bucket.at = now
    const ok = bucket.tokens >= cost
    if (ok || always) bucket.tokens -= cost
    buckets.set(client, bucket)
    if (buckets.size > maxClients) buckets.delete(buckets.keys().next().value!)
    return ok ? { ok: true } : { ok: false, retryAfterMs: Math.ceil((Math.min(cost, burst) - bucket.tokens) / rate) }
  }
}

/**
 * `handler` behind `limiter`, each request counted for its client as `endpoint` tells clients apart
 * (its `clientKey`, else the default key); past the limit, `429 RATE_LIMITED` with `Retry-After`.
 */
export function rateLimited(handler: FetchHandler, limiter: RateLimiter, endpoint: { clientKey?: ClientKey }): FetchHandler {
  const clientKey = endpoint.clientKey ?? defaultClientKey
  return (request) => {
    const decision = limiter(clientKey(request))
    if (decision.ok) return handler(request)
    return Promise.resolve(tooMany(decision, (seconds) => `Too many requests from this client; try again in ${seconds} s.`))
  }
}

/** `429 RATE_LIMITED` with `Retry-After` (whole seconds, at least 1) and `say(seconds)` as its message. */
export function tooMany(decision: { retryAfterMs: number }, say: (seconds: number) => string): Response {
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
  return new Response(JSON.stringify({ code: 'RATE_LIMITED', message: say(seconds) }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(seconds) },
  })
}

/**
 * A per-client token bucket: each client may make `burst` requests at once and `perSecond` on
 * average. Buckets are kept for at most `maxClients` clients (the least recently seen go first),
 * so a flood from many addresses costs bounded memory — a forgotten client starts with a full
 * bucket, which is what it would have had anyway after a pause.
 */
import type { Clock } from '../time/clock.ts'

/**
 * A token bucket per client: `requestsPerSecond` on average, with bursts up to `burst`.
 */
export interface RateLimit {
  /** Average requests per second one client may make. */
  requestsPerSecond: number
  /** Requests one client may make at once (default: twice the rate, at least 1). */
  burst?: number
}

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number }

export function createRateLimiter(limit: RateLimit, clock: Clock, maxClients = 10_000): (client: string) => RateDecision {
  const rate = limit.requestsPerSecond / 1000
  const burst = limit.burst ?? Math.max(1, Math.ceil(limit.requestsPerSecond * 2))
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (client) => {
    const now = clock.now()
    const bucket = buckets.get(client) ?? { tokens: burst, at: now }
    buckets.delete(client) // re-inserted below: the map's order is least recently seen first
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * rate)
    bucket.at = now
    const ok = bucket.tokens >= 1
    if (ok) bucket.tokens -= 1
    buckets.set(client, bucket)
    if (buckets.size > maxClients) buckets.delete(buckets.keys().next().value!)
    return ok ? { ok: true } : { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / rate) }
  }
}

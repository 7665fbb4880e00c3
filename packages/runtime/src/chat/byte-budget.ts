/**
 * How many bytes one client may make the chat handle: request bodies as they arrive and the
 * conversations it restores, `clientBytesPerSecond` on average with bursts of 8 × `maxBodyBytes`.
 *
 * A turn's work grows with its size — parsing, appending to the conversation, folding it, and
 * with SQLite the write itself, all on the one event loop every client shares. Without a budget,
 * one client sending 1 MB turns back to back kept the loop busy nearly all the time, and everyone
 * else's turn waited behind it (36× its usual time at the median). With it, that client gets its
 * burst and then a turn every couple of seconds, and the loop stays free for the others. A person
 * pasting a large document now and then never meets it.
 */
import { createRateLimiter, tooMany } from '../http/rate-limit.ts'
import type { Clock } from '../time/clock.ts'

export interface ByteBudget {
  /** Room for `bytes` more from `client` (taken if there is), or the 429 to answer with. */
  admit(client: string, bytes: number): Response | undefined
  /** Bytes the work for `client` turned out to cost (a restored conversation): taken even past the budget, to be waited off. */
  charge(client: string, bytes: number): void
}

export function createByteBudget(limits: { clientBytesPerSecond: number; maxBodyBytes: number }, clock: Clock): ByteBudget {
  const take = createRateLimiter({ requestsPerSecond: limits.clientBytesPerSecond, burst: 8 * limits.maxBodyBytes }, clock)
  return {
    admit(client, bytes) {
      const decision = take(client, bytes)
      if (decision.ok) return undefined
      return tooMany(
        decision,
        (seconds) =>
          `This client sent or restored more than the server takes from one client (limits.clientBytesPerSecond: ${limits.clientBytesPerSecond} bytes a second, with bursts); try again in ${seconds} s.`,
      )
    },
    charge(client, bytes) {
      take(client, bytes, true)
    },
  }
}

/**
 * The limits every surface applies to its calls, by the same names wherever they are given
 * (`createChatHandler({ limits })`, `createMcpServer({ limits })`, `createAiSdkBridge({ limits })`)
 * and quoted by those names in every refusal ("limits.maxCallsPerClient"): one vocabulary, one
 * check, one set of defaults. A surface adds its own (the chat's `maxSteps`, MCP's `maxRounds`).
 */
import { z } from 'zod/v4'

/** What bounds a surface's calls: how many are held in all and per client, how long one waits, what stays in memory, how large a question's context may be. */
export interface CallLimits {
  /**
   * Calls held at once (waiting for an answer, or running), counted in the store over every
   * instance sharing it (default 10,000). Past it, the longest-waiting call of the client holding
   * the most makes room, or the new call is refused.
   */
  maxActiveCalls: number
  /** Calls one client (`clientKey`) may hold at once, over every instance (default 20). */
  maxCallsPerClient: number
  /**
   * How long a call may wait for its answer, in ms (default 30 minutes): then it is aborted. Over
   * MCP it is also the requestState's lifetime and the SDK's per-question timeout for 2025-11-25
   * clients (whose own default, 60 s, is far too short for a person).
   */
  idleTimeoutMs: number
  /**
   * Waiting calls whose generators this process keeps in memory (default 1,000): past it the
   * longest-waiting is let go of — its record holds all it needs — and an answer replays it from
   * its journal (no step runs again). 0: every answer replays.
   */
  warmCalls: number
  /**
   * How long a running call's lock outlives a server that crashed, in ms (default 10 s): then an
   * instance sharing the store takes the call over and runs it on from its journal.
   */
  lockLeaseMs: number
  /**
   * Largest context data of one question (`ctx.elicit(key, { context })`), in bytes of JSON
   * (default 256 KiB): a call asking with more is ended with that reason, since every client
   * would be sent it and the store would hold it.
   */
  maxContextBytes: number
}

/** What each limit is where a surface's `limits` do not say. */
export const CALL_LIMITS: CallLimits = {
  maxActiveCalls: 10_000,
  maxCallsPerClient: 20,
  idleTimeoutMs: 30 * 60_000,
  warmCalls: 1_000,
  lockLeaseMs: 10_000,
  maxContextBytes: 256 << 10,
}

const positive = z.number().int().positive()

/** How each limit is checked, for a surface's `limits` schema (`z.object({ ...callLimitsShape, ...its own })`). */
export const callLimitsShape = {
  maxActiveCalls: positive,
  maxCallsPerClient: positive,
  // A timer cannot wait longer than 2^31 - 1 ms; a day is plenty for a person.
  idleTimeoutMs: z
    .number()
    .int()
    .min(1000, 'at least 1000 ms; a person needs time to answer')
    .max(24 * 3600_000, 'at most a day (86400000 ms)'),
  warmCalls: z.number().int().min(0).max(1_000_000, 'at most 1000000 (each keeps a generator in memory)'),
  lockLeaseMs: z.number().int().min(1000, 'at least 1000 ms (a lease renewed every third of it)').max(600_000, 'at most 10 minutes (600000 ms)'),
  maxContextBytes: z
    .number()
    .int()
    .min(1024, 'at least 1024 bytes')
    .max(64 << 20, 'at most 64 MiB'),
}

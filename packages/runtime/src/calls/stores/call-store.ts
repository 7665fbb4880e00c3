/**
 * The call store: where a tool call's durable record lives, so that a suspended call survives a
 * reload, a restart, or an answer that reaches another instance. One interface serves chat calls,
 * MCP calls and conversations; `createMemoryStore` (tests, one process), `createSqliteStore` (one
 * file, the embedded default), `createRedisStore` and `createPostgresStore` (several instances)
 * implement it, and one contract test suite runs against them all.
 *
 * Two mechanisms keep concurrent instances honest:
 *   - a per-call **lock** (a lease with a time limit and a fencing number): only its holder
 *     advances the call, so two answers reaching two instances cannot both run the next step;
 *   - a **revision** on every record: `update` succeeds only on top of the revision it read, so a
 *     holder whose lease ran out (a stalled process) cannot overwrite what the next holder wrote.
 */
import type { CallerAuth } from '../../tool/caller-auth.ts'
import type { JournalEntry } from '../../bridge/journal.ts'

/**
 * A stored call's status: `running`, `waiting` (for an answer), or ended.
 */
export type StoredCallStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'aborted'

/**
 * How a stored call ended, as a store keeps it.
 */
export type StoredOutcome =
  { status: 'completed'; result: unknown } | { status: 'failed'; message: string; code?: string } | { status: 'aborted'; reason: string; cancelled?: true }

/**
 * What serves a call, recorded with it: the chat handler, the MCP server, or the AI SDK bridge.
 * Each encodes its questions and results its own way, so a call is carried on only by its surface.
 */
export type CallSurface = 'chat' | 'mcp' | 'ai-sdk'

/** The question a waiting call asks: its id and key, and what the serving side needs to ask it again. */
export interface StoredQuestion {
  id: string
  key: string
  /** Surface-specific: the encoded `elicit_request` (chat), the input request and wait (MCP). */
  wire: unknown
}

/**
 * A call as a store keeps it: tool, parameters' digest, status, journal, the question it waits for, its outcome, revision and expiry.
 */
export interface CallRecord {
  callId: string
  /** What serves the call: only a registry of this surface resumes, aborts or recovers it. */
  surface: CallSurface
  tool: string
  /** The call's arguments as the tool received them (replay starts the tool with them again). */
  params: unknown
  /** sha256 of their canonical JSON (an MCP requestState must match it). */
  paramsDigest: string
  /** Whose call it is (per-client limits). */
  client: string
  /**
   * Who started it (`ctx.auth`, as the surface's authentication said; never a credential): the
   * tool sees it on every replay and recovery, and only this caller may answer or cancel the call.
   */
  auth?: CallerAuth
  status: StoredCallStatus
  journal: JournalEntry[]
  pending?: StoredQuestion
  /** sha256 of the call's token (chat); the token itself never reaches the store. */
  tokenHash?: string
  /** The instance that last advanced the call. */
  owner: string
  /** Starts at 1; every update adds 1. */
  revision: number
  createdAt: number
  updatedAt: number
  /** After this (epoch ms) the record may be gone. */
  expiresAt: number
  /**
   * A waiting call's deadline (epoch ms): an answer after it finds the call timed out (its
   * idle time). Read from the record, so a call let go of from memory times out all the same.
   */
  answerBy?: number
  outcome?: StoredOutcome
  /**
   * What the serving side needs to run the call on after its instance stopped, opaque to the
   * store: the chat conversation it belongs to; the MCP client's capabilities and revision.
   */
  origin?: unknown
  /** The call's trace (W3C traceparent of its first span), so its later parts join it (`call-trace.ts`). */
  trace?: string
}

/**
 * A conversation as the store keeps it: a head (who owns it, its revision, a small `meta` its
 * writers compare and set), a `state` written whole, and a `log` of entries appended since. A
 * turn appends what it adds — its cost does not grow with the conversation — and a writer folds
 * the log into a new state now and then (`putConversation`). State, meta and entries are opaque
 * to the store.
 */
export interface ConversationHead {
  id: string
  /** sha256 of the conversation's secret; a reader must present the secret. */
  secretHash: string
  revision: number
  updatedAt: number
  expiresAt: number
  /** Small and opaque, replaced by each write (absent in records of versions before the log). */
  meta?: unknown
  /** Entries appended since the state was written whole, and their size as JSON. */
  logLength: number
  logBytes: number
}

/**
 * A conversation as a store keeps it: its head, the state written whole, and the log appended since.
 */
export interface ConversationRecord extends ConversationHead {
  /** What was written whole (`putConversation`); undefined if the conversation began with an append. */
  state: unknown
  /** What was appended since, oldest first. */
  log: unknown[]
}

/** A conversation written whole: its log starts empty. */
export type ConversationWrite = Omit<ConversationRecord, 'log' | 'logLength' | 'logBytes'>

/** Entries appended to a conversation (one new revision), with its new meta and expiry. */
export interface ConversationAppend {
  id: string
  /** The owner's; a stored conversation with another is left alone (the append is refused). */
  secretHash: string
  /** Only on top of this revision (0: no conversation yet); refused otherwise. */
  ifRevision: number
  meta: unknown
  entries: unknown[]
  updatedAt: number
  expiresAt: number
}

/** A held lock on one call. `fence` grows with every acquisition of that call's lock. */
export interface CallLease {
  readonly callId: string
  readonly owner: string
  readonly fence: number
}

/** Limits of calls held (not finished) that `admit` checks, over every instance sharing the store. */
export interface HeldLimits {
  /** Most calls one client may hold. */
  perClient: number
  /** Most calls held in all. */
  total: number
}

/**
 * How many calls one client may hold while `all` are held: `perClient` while at most half the
 * total is held, then shrinking in step with the room left, to a quarter of it (at least 1) when
 * full. As many clients fill the store each new one can take less of what is left, so they cannot
 * fill it for everyone; an ordinary client, holding a call or two, is not refused. (The Redis
 * store's ADMIT script computes the same.)
 */
export function clientShare(all: number, limits: HeldLimits): number {
  const half = limits.total / 2
  if (all <= half) return limits.perClient
  const floor = Math.max(1, Math.ceil(limits.perClient / 4))
  const left = Math.max(0, (limits.total - all) / half)
  return Math.max(floor, Math.ceil(floor + (limits.perClient - floor) * left))
}

/** What `admit` decided. Refused: which limit is full, and (the total) who holds calls. */
export type Admission =
  | { admitted: true }
  | {
      admitted: false
      full: 'client' | 'total'
      /** Calls the client holds (full: 'client') or all held (full: 'total'). */
      held: number
      /** Full: 'client': the client's share when it was refused (`clientShare`), and how many were held in all. */
      share?: number
      all?: number
      /**
       * The total is full: who holds calls — each client, how many, and its call held longest
       * (`until` the earliest), for `roomFor` to choose who makes room. Every client, or (Redis)
       * the clients of the 64 calls held longest, without a pass over all.
       */
      holders?: HeldBy[]
      /** The total is full: calls the admitted call's own client holds. */
      clientHeld?: number
    }

/** One client's held calls, when the total is full: how many, and the one held longest and until when it counts. */
export interface HeldBy {
  client: string
  held: number
  oldest: string
  until: number
}

/**
 * Until when a record keeps its call counted as held: a waiting call until its answer deadline
 * (it may time out unanswered), a running one as long as its record lives; a finished one not.
 */
export function heldUntil(record: CallRecord): number | undefined {
  if (record.status === 'completed' || record.status === 'failed' || record.status === 'aborted') return undefined
  return record.status === 'waiting' && record.answerBy !== undefined ? record.answerBy : record.expiresAt
}

/**
 * Where calls and conversations are kept, so any instance can resume a call: records with revisions, per-call locks with fencing, admission bounds and the index of running calls. `createMemoryStore`, `createSqliteStore`, `createRedisStore` and `createPostgresStore` make one; a store of your own implements this and passes the contract tests.
 */
export interface CallStore {
  /** `memory`, `sqlite`, `redis` or `postgres`, for messages. */
  readonly kind: string
  /** Insert a new record (revision 1); false if one with that id exists. */
  create(record: CallRecord): Promise<boolean>
  get(callId: string): Promise<CallRecord | undefined>
  /**
   * Replace the record if the stored one has revision `record.revision - 1`; false otherwise (it
   * was advanced by someone else, or is gone).
   */
  update(record: CallRecord): Promise<boolean>
  /** Take the call's lock for `ttlMs`; undefined while someone else holds it. */
  lock(callId: string, owner: string, ttlMs: number): Promise<CallLease | undefined>
  /** Extend a held lock; false if it was lost (expired and taken by another). */
  renew(lease: CallLease, ttlMs: number): Promise<boolean>
  /** Release a held lock (a lock held by someone else is left alone). */
  unlock(lease: CallLease): Promise<void>
  /** Who holds the call's lock and for how long still (ms), if anyone does: said to a request it keeps waiting. */
  lockHolder(callId: string): Promise<{ owner: string; expiresInMs: number } | undefined>
  /**
   * Ids of `surface`'s calls recorded `running` whose lock nobody holds (at most `limit`): the
   * instance that ran them stopped, since a live one renews the lock of every call it runs.
   * Recovery takes them over. Cheap however many calls wait: stores keep running calls in an index
   * of their own. Another surface's calls are never listed: only their own surface can carry them on.
   */
  stranded(limit: number, surface: CallSurface): Promise<string[]>
  /**
   * Count a new call as held by its client, if the limits allow (its client holds fewer than
   * `clientShare` of all held, and all fewer than the total), atomically (two instances
   * admitting at once cannot both take the last place). A held call stays counted until `until`
   * (epoch ms), or as its records say (`create`/`update` keep it current: `heldUntil`), or until
   * `release`. Admitting a call already counted is admitted and extends its `until` if later (a
   * claim renewed while its call runs without a record).
   */
  admit(call: { callId: string; client: string; until: number }, limits: HeldLimits): Promise<Admission>
  /** Stop counting a call as held (it ended without a record saying so). */
  release(call: { callId: string; client: string }): Promise<void>
  /** The conversation, all of it (state and log). */
  getConversation(id: string): Promise<ConversationRecord | undefined>
  /** The conversation's head only: what a turn reads, whatever the conversation's size. */
  getConversationHead(id: string): Promise<ConversationHead | undefined>
  /**
   * Append entries on top of `ifRevision` (0: begins the conversation): the new head, or
   * undefined if the stored revision differs or the conversation has another owner.
   */
  appendConversation(append: ConversationAppend): Promise<ConversationHead | undefined>
  /** Insert (revision 1) or replace on top of `revision - 1`, the log emptied; false on a conflict. */
  putConversation(record: ConversationWrite): Promise<boolean>
  /**
   * A random secret of 32 bytes, made once for the store and kept in it (the first to ask makes
   * it; everyone after, on every instance and after restarts, gets the same): what MCP servers
   * sharing the store sign their requestStates with when they are given no `secret`, so a state
   * minted before a restart, or by another instance, still verifies. It lives as long as the store.
   */
  sharedSecret(): Promise<Uint8Array>
  /** Release connections and handles. The store is unusable afterwards. */
  close(): Promise<void>
}

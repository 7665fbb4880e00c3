/**
 * The one registry of tool calls, used by the chat engine, the MCP server and the AI SDK bridge
 * alike. Live calls (their generators) belong to the registry's Effection scope; their durable
 * records live in a `CallStore`, so a call survives this process:
 *
 *   - `start` runs a new call in the scope, once the store admits it (`admission.ts`). Each
 *     journal entry is written to the store before the tool goes on, so a step that ran is never
 *     run again by a replay (`record-writes.ts`);
 *   - `park` stores the question the call waits for and lets go of its lock; the copy stays in
 *     memory while it is among the `warmCalls` most recently parked (`call-copies.ts`);
 *   - `resume` and `abort` are what a request with an answer or a cancel does, on any instance:
 *     take the call's lock, check the record, act (`call-requests.ts`);
 *   - the loops that keep calls — renewing the leases of running calls (`lease-keeper.ts`) and
 *     finding calls whose server stopped (`recovery-scan.ts`, `call-recovery.ts`) — are spawned
 *     in the registry's scope and end when it closes.
 *
 * Each call belongs to a client (by default its remote address) and a surface (chat, MCP, the AI
 * SDK): a registry resumes, aborts and recovers only its own surface's calls.
 */
import { randomBytes } from 'node:crypto'
import { createScope, spawn, suspend, type Scope } from 'effection'
import { DuplicateCallError } from '../errors/call-limit-errors.ts'
import { consoleLogger } from '../telemetry/logger.ts'
import { systemClock, type Clock } from '../time/clock.ts'
import { admit, type AdmissionLimits } from './admission.ts'
import type { CallActivity } from './call-activity.ts'
import { CallCopies } from './call-copies.ts'
import { CALL_LIMITS } from './call-limits.ts'
import { describeOutcome, hashToken, tokenMatches } from './call-record.ts'
import { CallRecovery } from './call-recovery.ts'
import { abortCall, evictCall, resumeCall, type AbortOptions, type Aborted, type RequestContext } from './call-requests.ts'
import type { SegmentStart } from './call-trace.ts'
import { keepLeases } from './lease-keeper.ts'
import type { LiveCall } from './live-call.ts'
import type { AnswerWait } from './parked-calls.ts'
import { scanStranded } from './recovery-scan.ts'
import type { CallRegistryOptions, LiveCallInfo, ResumeOptions, Resumed, StartCall } from './registry-types.ts'
import type { CallStore, StoredQuestion } from './stores/call-store.ts'
import { createMemoryStore } from './stores/memory-store.ts'
import { measureStore } from './stores/measured-store.ts'

const RECOVERY_CONCURRENCY = 8

/**
 * The calls a chat handler, an MCP server or an AI SDK bridge holds: started, parked on their questions, let go of from memory and replayed, recovered from a crashed instance, and bounded in all and per client.
 */
export class CallRegistry<X = undefined> {
  readonly store: CallStore
  readonly instanceId: string
  readonly options: Readonly<CallRegistryOptions<X>>
  readonly clock: Clock
  readonly #copies: CallCopies<X>
  readonly #requests: RequestContext<X>
  readonly #limits: AdmissionLimits
  readonly #destroy: () => Promise<void>

  constructor(options: CallRegistryOptions<X>) {
    const limits = { ...CALL_LIMITS, ...options.limits }
    const leaseMs = limits.lockLeaseMs
    const clock = (this.clock = options.clock ?? systemClock)
    this.options = Object.freeze({ ...options })
    // Each operation timed (mcp_bridge.store.duration, .errors), when OpenTelemetry is there.
    const store = (this.store = measureStore(options.store ?? createMemoryStore({ clock })))
    const instanceId = (this.instanceId = options.instanceId ?? randomBytes(6).toString('base64url'))
    const [scope, destroy] = createScope(options.scope)
    this.#destroy = () => Promise.resolve(destroy())
    const { surface } = options
    const { idleTimeoutMs } = limits
    const log = options.logger ?? consoleLogger
    const wait: AnswerWait = { ms: idleTimeoutMs, option: 'limits.idleTimeoutMs' }
    const writes = { store, clock, instanceId, surface, idleTimeoutMs, leaseMs }
    // A claim lasts a lease: renewed while its call runs unrecorded (lease-keeper.ts), lapsing soon after a crash.
    this.#limits = { maxActiveCalls: limits.maxActiveCalls, maxCallsPerClient: limits.maxCallsPerClient, surface, claimMs: leaseMs }
    const copies = (this.#copies = new CallCopies<X>({ scope, clock, writes, log, wait, warmCalls: limits.warmCalls }))
    const recovery = options.recover && new CallRecovery<X>({ copies, store, instanceId, leaseMs, surface, log, plan: options.recover })
    this.#requests = {
      copies,
      store,
      writes,
      instanceId,
      leaseMs,
      clock,
      surface,
      scope,
      waits: [wait, ...(options.otherWaits ?? [])],
      carryOn: recovery && ((l, r) => recovery.carryOn(l, r)),
    }
    startLoops(scope, { store, instanceId, leaseMs, clock, surface, log, copies, recovery, concurrency: options.recoveryConcurrency ?? RECOVERY_CONCURRENCY, limits: this.#limits })
  }

  get size(): number {
    return this.#copies.size
  }

  /**
   * Start a new call, once the store admits it (the limits of held calls, shared by every
   * instance). Throws `TooManyCallsError` past a limit, leaving every other call as it was — or,
   * when the total is full, after ending the longest-waiting call of a client holding more.
   */
  async start(spec: StartCall<X> & { issueToken?: true }): Promise<LiveCall<X> & { token: string }>
  async start(spec: StartCall<X>): Promise<LiveCall<X> & { token?: string }>
  async start(spec: StartCall<X>): Promise<LiveCall<X> & { token?: string }> {
    if (this.#copies.get(spec.callId)) throw new DuplicateCallError(spec.callId)
    await admit(this.store, this.clock, this.#limits, { callId: spec.callId, client: spec.client }, (callId, reason) => evictCall(this.#requests, callId, reason))
    try {
      const segment: SegmentStart = { kind: 'start', ...(spec.traceParent !== undefined && { parent: spec.traceParent }) }
      const token = spec.issueToken === false ? undefined : randomBytes(18).toString('base64url')
      const call = this.#copies.run(spec, { tokenHash: token === undefined ? undefined : hashToken(token), revision: 0, segment })
      if (spec.recordAtStart) await this.#copies.recordStart(call)
      return token === undefined ? call : Object.assign(call, { token })
    } catch (error) {
      // Not started: its admission is given back (a store that does not answer lets it expire).
      await this.store.release(spec).catch(() => undefined)
      throw error
    }
  }

  get(callId: string): LiveCall<X> | undefined {
    return this.#copies.get(callId)
  }

  /** Constant-time check of the token a request presents for a live call. */
  verifyToken(call: LiveCall<X>, token: unknown): boolean {
    return tokenMatches(call.tokenHash, token)
  }

  /** True while no request is serving the call (it waits for its client). */
  isParked(call: LiveCall<X>): boolean {
    return this.#copies.isParked(call)
  }

  /**
   * The call waits for its client: store the question, let go of its lock, and start its idle
   * time. Resolves once the record is stored (an answer may then reach any instance). A question
   * the store did not take is never asked: the call ends and this throws `StoreUnavailableError`.
   */
  park(call: LiveCall<X>, question: StoredQuestion, options?: { pinned?: boolean; wait?: AnswerWait }): Promise<void> {
    return this.#copies.park(call, question, options)
  }

  /**
   * Get a waiting call back to hand it an answer, on whichever instance the request reached.
   * On success the caller holds the call's lock until it parks the call again or the call ends.
   */
  resume(callId: string, options: ResumeOptions<X>): Promise<Resumed<X>> {
    return resumeCall(this.#requests, callId, options)
  }

  /** Abort a call the request proves it owns (its token or caller), running here or waiting anywhere. */
  abort(callId: string, token: unknown, reason: string, options: AbortOptions = {}): Promise<Aborted> {
    return abortCall(this.#requests, callId, token, reason, options)
  }

  /** How a finished call ended ("it completed", "it was aborted: ..."), if the store remembers it. */
  async finishedHow(callId: string): Promise<string | undefined> {
    const record = await this.store.get(callId)
    return record?.outcome ? describeOutcome(record.outcome) : undefined
  }

  list(): LiveCallInfo[] {
    return this.#copies.list()
  }

  /**
   * Stop every live call and end the registry's scope. Their records stay as they were: a call
   * waiting for an answer can be resumed by the next process using the same store.
   */
  async close(reason = 'the server closed'): Promise<void> {
    await this.#copies.stopAll(reason)
    await this.#destroy()
  }

  /**
   * Keep a timeline of every call from now on, and of the last `keep` that ended: what the dev
   * panel shows (`activity()`). Off until asked: a server in production keeps none.
   */
  recordActivity(keep = 50): void {
    this.#copies.recordActivity(keep)
  }

  /** The calls seen since `recordActivity()`: the live ones first, then those that ended, the latest first. */
  activity(): CallActivity[] {
    return this.#copies.activity()
  }

  /**
   * Resolves once everything the call wrote is stored and its lock released: after this, any
   * instance sees how it ended. Report a call's end only then, or a quick follow-up request could
   * find it still locked.
   */
  settled(call: LiveCall<X>): Promise<void> {
    return call.writes
  }
}

/** The loops that keep a registry's calls: its scope owns them, and they end when it closes. */
function startLoops<X>(
  scope: Scope,
  o: Pick<RequestContext<X>, 'store' | 'instanceId' | 'leaseMs' | 'clock' | 'surface' | 'copies'> & {
    log: CallRegistryOptions<X>['logger'] & object
    recovery: CallRecovery<X> | undefined
    concurrency: number
    limits: AdmissionLimits
  },
): void {
  const { store, instanceId, leaseMs, clock, surface, copies, recovery, log, limits } = o
  const bounds = { perClient: limits.maxCallsPerClient, total: limits.maxActiveCalls }
  const renewClaim = (call: LiveCall<X>) => store.admit({ callId: call.callId, client: call.client, until: clock.now() + limits.claimMs }, bounds)
  void scope.run(function* () {
    yield* spawn(() => keepLeases({ store, instanceId, leaseMs, clock, running: () => copies.running(), supersede: (call, reason) => copies.supersede(call, reason), renewClaim }))
    if (recovery) {
      yield* spawn(() =>
        scanStranded({
          store,
          surface,
          clock,
          leaseMs,
          concurrency: o.concurrency,
          busy: () => recovery.busy,
          held: (callId) => copies.get(callId) !== undefined,
          recover: (callId) => recovery.recoverOne(callId),
          log,
        }),
      )
    }
    yield* suspend()
  })
}

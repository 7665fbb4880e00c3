/**
 * The one registry of tool calls, used by the chat engine and the MCP server alike. Live calls
 * (their generators) belong to the registry's Effection scope; their durable records live in a
 * `CallStore`, so a call survives this process:
 *
 *   - `start` runs a new call in the scope. Each journal entry is written to the store before the
 *     tool goes on, so a step that ran is never run again by a replay;
 *   - `park` stores the question the call waits for and lets go of its lock. The generator stays
 *     in memory while it is among the `warmCalls` most recently parked (an `IdleQueue` aborts one
 *     parked longer than `idleTimeoutMs`); past that it is let go of (hibernated) — its record
 *     holds all it needs, and an answer replays it from its journal. A question the store did not
 *     take is never asked: `park` ends the call and throws `StoreUnavailableError`;
 *   - `resume` is how a request with an answer gets the call back — on any instance: it takes the
 *     call's lock in the store, checks the record (the token, that the call still waits and was
 *     not finished), and returns the live generator when this process holds the current one, or
 *     replays the journal into a new one (no step re-runs);
 *   - when a call ends, however it ends, its outcome is stored: later answers, aborts and MCP
 *     requestStates for it are refused on every instance and after restarts;
 *   - each call belongs to a client (by default its remote address). A new call is admitted
 *     against limits the store keeps for every instance: its client may hold at most
 *     `maxCallsPerClient` unfinished calls, all clients `maxCalls`; when that is full, the
 *     longest-waiting call of the client holding the most makes room. An answer to a call that
 *     exists is never refused for this process's capacity.
 */
import { randomBytes } from 'node:crypto'
import { consoleLogger, type McpBridgeLogger } from '../telemetry/logger.ts'
import { call as callPromise, createScope, spawn, suspend, type Operation, type Scope } from 'effection'
import { keepLeases } from './lease-keeper.ts'
import { scanStranded } from './recovery-scan.ts'
import { createBridgeHost, type BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { TERMINAL_STATUSES, type BridgeEvent } from '../bridge/events.ts'
import { completedSteps, type JournalEntry } from '../bridge/journal.ts'
import { DuplicateCallError } from '../errors/call-limit-errors.ts'
import type { CallRefusal, CallRegistryOptions, LiveCallInfo, ResumeOptions, Resumed, StartCall } from './registry-types.ts'
import { checkRecord, forbidden, held, refusal } from './call-refusals.ts'
import { JournalDivergenceError } from '../errors/call-errors.ts'
import { describeOutcome, hashToken, storedOutcome, tokenMatches, type RecordChange } from './call-record.ts'
import { type AnswerWait, ParkedCalls, unansweredReason } from './parked-calls.ts'
import type { LiveCall } from './live-call.ts'
import { CallTrace, type SegmentStart } from './call-trace.ts'
import { ActivityLog, type CallActivity } from './call-activity.ts'
import { bothObservers } from '../bridge/call-observer.ts'
import { admit, type AdmissionLimits } from './admission.ts'
import { recordFinished, writeRecord, type RecordWrites } from './record-writes.ts'
import { mayActOn, type CallerAuth } from '../tool/caller-auth.ts'
import type { CallLease, CallRecord, CallStore, StoredOutcome, StoredQuestion } from './stores/call-store.ts'
import { createMemoryStore } from './stores/memory-store.ts'
import { measureStore } from './stores/measured-store.ts'
import { StoreUnavailableError } from './stores/store-errors.ts'
import { systemClock, type Clock } from '../time/clock.ts'

/** Default lease of a call's lock; a running call's lease is renewed every third of it. */
export const LEASE_MS = 10_000
/** Default of `warmCalls`. */
export const WARM_CALLS = 1_000
/** Why a parked copy stops when it is let go of from memory (its `finally` runs; nothing is recorded). */
const HIBERNATED = 'it was let go of from memory while it waited; an answer replays it from its journal'
const RECOVERY_CONCURRENCY = 8

/**
 * The calls a chat handler, an MCP server or an AI SDK bridge holds: started, parked on their questions, let go of from memory and replayed, recovered from a crashed instance, and bounded in all and per client.
 */
export class CallRegistry<X = undefined> {
  readonly #calls = new Map<string, LiveCall<X>>()
  readonly #parked: ParkedCalls<LiveCall<X>>
  readonly #log: McpBridgeLogger
  /** Timelines of the calls seen since `recordActivity()`, live and the last ended (by end order). */
  #activity: ActivityLog | undefined
  /** How long a parked call waits unless `park` says otherwise. */
  readonly #wait: AnswerWait
  readonly #scope: Scope
  readonly #destroy: () => Promise<void>
  readonly store: CallStore
  readonly instanceId: string
  readonly options: Readonly<CallRegistryOptions<X>>
  readonly #leaseMs: number
  readonly clock: Clock
  readonly #limits: AdmissionLimits
  /** What record writes need: the store, this instance, the clock and the retention times. */
  readonly #writes: RecordWrites
  /** Recovered calls being driven now (bounded by `recoveryConcurrency`). */
  #recovering = 0

  constructor(options: CallRegistryOptions<X>) {
    this.#leaseMs = options.leaseMs ?? LEASE_MS
    this.clock = options.clock ?? systemClock
    this.options = Object.freeze({ ...options })
    // Each operation timed (mcp_bridge.store.duration, .errors), when OpenTelemetry is there.
    this.store = measureStore(options.store ?? createMemoryStore({ clock: this.clock }))
    this.instanceId = options.instanceId ?? randomBytes(6).toString('base64url')
    const [scope, destroy] = createScope(options.scope)
    this.#scope = scope
    this.#destroy = () => Promise.resolve(destroy())
    this.#wait = { ms: options.idleTimeoutMs, option: options.idleTimeoutOption }
    const { maxCalls, maxCallsPerClient, maxCallsOption, maxCallsPerClientOption, surface } = options
    this.#writes = { store: this.store, clock: this.clock, instanceId: this.instanceId, surface: options.surface, idleTimeoutMs: options.idleTimeoutMs, leaseMs: this.#leaseMs }
    this.#limits = { maxCalls, maxCallsPerClient, maxCallsOption, maxCallsPerClientOption, surface, claimMs: options.idleTimeoutMs + this.#leaseMs }
    this.#log = options.logger ?? consoleLogger
    this.#parked = new ParkedCalls<LiveCall<X>>(scope, this.clock, (call, reason) => void call.host.abort(reason))
    const registry = this
    // The loops that keep this registry's calls: its scope owns them, and they end when it closes.
    void scope.run(function* () {
      yield* spawn(() =>
        keepLeases({
          store: registry.store,
          instanceId: registry.instanceId,
          leaseMs: registry.#leaseMs,
          clock: registry.clock,
          running: () => [...registry.#calls.values()].filter((call) => !registry.isParked(call)),
          supersede: (call, reason) => registry.#supersede(call, reason),
        }),
      )
      if (options.recover) {
        yield* spawn(() =>
          scanStranded({
            store: registry.store,
            surface: options.surface,
            clock: registry.clock,
            leaseMs: registry.#leaseMs,
            concurrency: options.recoveryConcurrency ?? RECOVERY_CONCURRENCY,
            busy: () => registry.#recovering,
            held: (callId) => registry.#calls.has(callId),
            recover: (callId) => registry.#recoverOne(callId),
            log: registry.#log,
          }),
        )
      }
      yield* suspend()
    })
  }

  /** Recover one stranded call: take its lock (one instance wins), replay its journal, drive it on. */
  async #recoverOne(callId: string): Promise<void> {
    const lease = await this.store.lock(callId, this.instanceId, this.#leaseMs).catch(() => undefined)
    if (!lease) return
    const record = await this.store.get(callId).catch(() => undefined)
    await this.#carryOn(lease, record)
  }

  /** Run a stranded call on from its journal, holding its lock (released if it is not one to recover). */
  async #carryOn(lease: CallLease, record: CallRecord | undefined): Promise<void> {
    const callId = lease.callId
    this.#recovering++
    try {
      const plan =
        record && record.surface === this.options.surface && record.status === 'running' && !record.outcome && !this.#calls.has(callId) ? this.options.recover?.(record) : undefined
      // A tool not served here, or no room: left for another instance (or a later scan).
      const leave = () => this.store.unlock(lease).catch(() => undefined)
      if (!plan) return void (await leave())
      let call: LiveCall<X>
      try {
        call = this.#run(
          { ...plan.spec, ...recorded(record!) },
          {
            tokenHash: record!.tokenHash,
            revision: record!.revision,
            replay: record!.journal,
            createdAt: record!.createdAt,
            segment: { kind: 'recover' },
            ...(record!.trace !== undefined && { trace: record!.trace }),
          },
        )
      } catch {
        return void (await leave())
      }
      call.lease = lease
      this.#log.info(
        { callId, tool: record!.tool, stoppedServer: record!.owner, journalEntries: record!.journal.length },
        `recovered tool call ${callId} (${record!.tool}): its server (${record!.owner}) stopped while running it; running it on from its journal (${record!.journal.length} entries)`,
      )
      try {
        await plan.drive(call, record!)
      } catch (error) {
        this.#log.error({ callId, tool: record!.tool, err: error }, `recovered tool call ${callId} (${record!.tool}) could not be carried on: ${(error as Error).message}`)
        if (!TERMINAL_STATUSES.has(call.host.status()) && !this.isParked(call)) await call.host.abort('it could not be carried on after its server stopped')
      }
    } finally {
      this.#recovering--
    }
  }

  get size(): number {
    return this.#calls.size
  }

  /**
   * Start a new call, once the store admits it (the limits of held calls, shared by every
   * instance). Throws `TooManyCallsError` past a limit, leaving every other call as it was — or,
   * when the total is full, after ending the longest-waiting call of a client holding more.
   */
  async start(spec: StartCall<X> & { issueToken?: true }): Promise<LiveCall<X> & { token: string }>
  async start(spec: StartCall<X>): Promise<LiveCall<X> & { token?: string }>
  async start(spec: StartCall<X>): Promise<LiveCall<X> & { token?: string }> {
    if (this.#calls.has(spec.callId)) throw new DuplicateCallError(spec.callId)
    await admit(this.store, this.clock, this.#limits, { callId: spec.callId, client: spec.client }, (callId, reason) => this.#evict(callId, reason))
    try {
      const segment: SegmentStart = { kind: 'start', ...(spec.traceParent !== undefined && { parent: spec.traceParent }) }
      if (spec.issueToken === false) return this.#run(spec, { tokenHash: undefined, revision: 0, segment })
      const token = randomBytes(18).toString('base64url')
      return Object.assign(this.#run(spec, { tokenHash: hashToken(token), revision: 0, segment }), { token })
    } catch (error) {
      await this.store.release(spec).catch(() => undefined)
      throw error
    }
  }

  /** End a waiting call to make room for another client's; false if it is not waiting any more. */
  async #evict(callId: string, reason: string): Promise<boolean> {
    const lease = await this.store.lock(callId, this.instanceId, this.#leaseMs)
    if (!lease) return false
    try {
      const record = await this.store.get(callId)
      if (!record || record.outcome || record.status !== 'waiting') return false
      return await this.#finishInStore(record, { status: 'aborted', reason })
    } finally {
      await this.store.unlock(lease).catch(() => undefined)
    }
  }

  /**
   * Record how a call that is not running ended, directly in its record (holding its lock): a
   * copy of it kept here is stopped first (its `finally` runs). False if the record moved on.
   */
  async #finishInStore(record: CallRecord, outcome: StoredOutcome): Promise<boolean> {
    const live = this.#calls.get(record.callId)
    if (live) {
      this.#supersede(live, outcome.status === 'aborted' ? outcome.reason : 'it ended')
      await live.host.outcome
    }
    return recordFinished(this.#writes, record, outcome)
  }

  /** A new copy of a call (started, replayed or recovered) in the registry's scope. Never refused for capacity. */
  #run(
    spec: StartCall<X>,
    durable: { tokenHash: string | undefined; revision: number; replay?: readonly JournalEntry[]; createdAt?: number; segment: SegmentStart; trace?: string },
  ): LiveCall<X> {
    let call: LiveCall<X> | undefined
    const registry = this
    const trace = new CallTrace({ callId: spec.callId, tool: spec.tool.name, surface: this.options.surface }, durable.segment, durable.trace, this.clock)
    const timeline = this.#activity?.timelineOf(spec.callId, spec.tool.name, spec.origin)
    const host = createBridgeHost({
      observer: bothObservers(trace.observer, timeline?.observer),
      tool: spec.tool,
      params: spec.params,
      callId: spec.callId,
      ...(spec.auth && { auth: spec.auth }),
      scope: this.#scope,
      // Synchronous: a call that ended is out of the registry before anyone hears of its end.
      onEnd: (outcome) => (call ? this.#end(call, outcome) : undefined),
      persist: function* (journal): Operation<void> {
        const entries = [...journal]
        // A step at the very start runs while createBridgeHost is still returning, before `call`
        // exists: wait that one tick (the tool waits too), so its entry is stored like any other.
        yield* callPromise(async () => {
          if (!call) await Promise.resolve()
          if (call) await writeRecord(registry.#writes, call, { status: 'running', journal: entries }, true)
        })
      },
      ...(spec.sampling && { sampling: spec.sampling }),
      ...(durable.replay && { replay: durable.replay }),
    })
    timeline?.follow(host, durable.segment.kind === 'resume' ? (durable.segment.replayed ? 'replayed from its journal' : 'an answer came') : durable.segment.kind)
    call = {
      callId: spec.callId,
      client: spec.client,
      auth: spec.auth,
      toolName: spec.tool.name,
      host,
      tokenHash: durable.tokenHash,
      createdAt: durable.createdAt ?? this.clock.now(),
      events: host.reader(),
      scope: this.#scope,
      extra: spec.extra,
      origin: spec.origin,
      params: spec.params,
      paramsDigest: spec.paramsDigest ?? '',
      revision: durable.revision,
      lease: undefined,
      writes: Promise.resolve(),
      superseded: false,
      storedQuestion: undefined,
      pinned: false,
      trace,
    }
    if (!TERMINAL_STATUSES.has(host.status())) {
      this.#calls.set(call.callId, call)
    } else {
      // It ended before `onEnd` could see it (invalid params, a replay that diverged at once):
      // it is not held, but its end is recorded and its lock released like any other's.
      this.#end(call, endOf(host.events))
    }
    return call
  }

  get(callId: string): LiveCall<X> | undefined {
    return this.#calls.get(callId)
  }

  /** Constant-time check of the token a request presents for a live call. */
  verifyToken(call: LiveCall<X>, token: unknown): boolean {
    return tokenMatches(call.tokenHash, token)
  }

  /** True while no request is serving the call (it waits for its client). */
  isParked(call: LiveCall<X>): boolean {
    return this.#parked.has(call)
  }

  /**
   * The call waits for its client: store the question, let go of its lock, and start its idle
   * time. Resolves once the record is stored (an answer may then reach any instance).
   */
  async park(call: LiveCall<X>, question: StoredQuestion, { pinned = false, wait = this.#wait }: { pinned?: boolean; wait?: AnswerWait } = {}): Promise<void> {
    if (this.#calls.get(call.callId) !== call) return
    call.pinned = pinned
    // Parked again on the question already stored (a refused answer, a retry without one): the
    // record is current, and a requestState minted for it stays valid.
    if (call.storedQuestion !== question.id) {
      try {
        await writeRecord(this.#writes, call, { status: 'waiting', journal: [...call.host.journal], pending: question, waitMs: wait.ms })
      } catch (error) {
        // Not stored, so not to be asked: an answer could not find it after a restart or on
        // another instance. The call ends here (its `finally` runs); the caller says why.
        const failure = error instanceof StoreUnavailableError ? error : new StoreUnavailableError(this.store.kind, 'its question', error)
        // Said for the model and the person; the store's own words (its address) go to the caller's log.
        await call.host.abort('its question could not be saved (the call store did not answer)')
        await this.#unlock(call)
        throw failure
      }
    }
    // Parked before the lock goes: a request that takes the lock next must find this copy waiting
    // here, or it would take it for an outdated one and replay the call.
    if (this.#calls.get(call.callId) === call && !TERMINAL_STATUSES.has(call.host.status())) {
      call.trace.parked(question.key)
      this.#activity?.get(call.callId)?.note('parked', `waits for ${question.key}`)
      this.#parked.touch(call, wait)
      this.#coolDown()
    }
    await this.#unlock(call)
  }

  /**
   * Keep at most `warmCalls` parked generators: let go of the longest-waiting ones past it. Their
   * records hold everything (journal, question); an answer replays them, on any instance.
   */
  #coolDown(): void {
    const warm = this.options.warmCalls ?? WARM_CALLS
    if (this.#parked.size <= warm) return
    let over = this.#parked.size - warm
    for (const call of [...this.#parked.longestWaiting()]) {
      if (over === 0) break
      if (call.pinned) continue
      this.#supersede(call, HIBERNATED)
      over--
    }
  }

  /**
   * Get a waiting call back to hand it an answer, on whichever instance the request reached.
   * On success the caller holds the call's lock until it parks the call again or the call ends.
   */
  async resume(callId: string, options: ResumeOptions<X>): Promise<Resumed<X>> {
    const lease = await this.store.lock(callId, this.instanceId, this.#leaseMs)
    if (!lease) return held(this.store, callId, this.instanceId, () => this.#answering(callId))
    const release = () => this.store.unlock(lease).catch(() => undefined)
    const record = await this.store.get(callId)
    const live = this.#calls.get(callId)
    const problem = await this.#check(callId, record, options)
    if (problem?.code === 'BUSY' && record!.status === 'running' && !live && this.options.recover) {
      // Running, its lock free, no copy here: the server running it stopped. Take it over now
      // rather than at the next scan; the answer is for a question it asks next, if any.
      void this.#scope.run(() => callPromise(() => this.#carryOn(lease, record)))
      return {
        ...refusal('BUSY', `Tool call "${callId}" was interrupted when the server running it stopped; it is being run on from where it was. Try again in a moment.`),
        retryAfterMs: 1000,
      }
    }
    if (problem) {
      // A copy held here of a call that finished or moved on elsewhere only takes a place: drop it.
      if (live && record && this.isParked(live) && (record.outcome || record.revision !== live.revision)) this.#supersede(live)
      await release()
      return problem
    }
    const segment = (replayed: boolean): SegmentStart => ({
      kind: 'resume',
      replayed,
      ...(options.traceParent !== undefined && { request: options.traceParent }),
      ...(record!.pending && { question: { key: record!.pending.key, askedAt: record!.updatedAt } }),
    })
    if (live && live.revision === record!.revision && this.isParked(live)) {
      this.#parked.remove(live)
      live.lease = lease
      live.trace.resumed(segment(false) as Extract<SegmentStart, { kind: 'resume' }>)
      this.#activity?.get(callId)?.note('resumed', 'an answer came')
      return { ok: true, call: live, replayed: false, record: record! }
    }
    // This process holds an outdated copy (another instance advanced the call) or none at all.
    if (live) this.#supersede(live)
    const spec = options.replay(record!)
    if (!spec) {
      await release()
      return refusal('REPLAY_FAILED', `Tool "${record!.tool}" of call "${callId}" is not served here, so the call cannot resume on this server.`)
    }
    try {
      const call = this.#run(
        { ...spec, ...recorded(record!) },
        {
          tokenHash: record!.tokenHash,
          revision: record!.revision,
          replay: record!.journal,
          createdAt: record!.createdAt,
          segment: segment(true),
          ...(record!.trace !== undefined && { trace: record!.trace }),
        },
      )
      call.lease = lease
      call.storedQuestion = record!.pending?.id // the stored record already asks it
      return { ok: true, call, replayed: true, record: record! }
    } catch (error) {
      await release()
      return refusal('REPLAY_FAILED', (error as Error).message)
    }
  }

  /** A request in this process is answering the call now (it holds a copy that is not parked). */
  #answering(callId: string): boolean {
    const live = this.#calls.get(callId)
    return live !== undefined && !this.isParked(live)
  }

  /**
   * `checkRecord`, and then, holding the call's lock: a waiting call whose answer deadline
   * passed has timed out — recorded now (a copy let go of from memory had nobody to time it out
   * when it did) and refused as finished.
   */
  async #check(callId: string, record: CallRecord | undefined, options: ResumeOptions<X>): Promise<CallRefusal | undefined> {
    const problem = checkRecord(callId, record, options, this.options.surface)
    if (problem || record!.answerBy === undefined || this.clock.now() <= record!.answerBy) return problem
    const outcome: StoredOutcome = { status: 'aborted', reason: unansweredReason(this.#waitOf(record!)) }
    if (!(await this.#finishInStore(record!, outcome))) return refusal('BUSY', `Tool call "${callId}" changed while it was being checked; try again.`)
    const how = describeOutcome(outcome)
    return { ...refusal('FINISHED', `Tool call "${callId}" is already finished: ${how}.`), how }
  }

  /** The wait a waiting record was parked for (its deadline less when it was written), by its option where known. */
  #waitOf(record: CallRecord): AnswerWait {
    const ms = record.answerBy! - record.updatedAt
    return [this.#wait, ...(this.options.otherWaits ?? [])].find((w) => w.ms === ms) ?? { ms, option: 'its answer deadline' }
  }

  /**
   * Abort a call the request proves it owns (its token), wherever it is: running here (halted at
   * once), or waiting — here or only in the store. A waiting call is not replayed to be aborted:
   * a local copy is stopped (its `finally` runs) and the abort is written to the record directly.
   * `wasRunning` says a response was serving the call (and reports its end).
   */
  async abort(
    callId: string,
    token: unknown,
    reason: string,
    { trusted = false, caller }: { trusted?: boolean; caller?: CallerAuth } = {},
  ): Promise<{ ok: true; wasRunning: boolean; toolName: string; completed?: readonly string[] } | CallRefusal> {
    const live = this.#calls.get(callId)
    if (live && !this.isParked(live)) {
      if (!trusted && !this.verifyToken(live, token)) return refusal('WRONG_TOKEN', `This abort does not carry the token of tool call ${callId}; nothing was aborted.`)
      if (!trusted && !mayActOn(live.auth, caller)) return forbidden(callId)
      await live.host.abort(reason)
      return { ok: true, wasRunning: true, toolName: live.toolName }
    }
    const lease = await this.store.lock(callId, this.instanceId, this.#leaseMs)
    if (!lease) return held(this.store, callId, this.instanceId, () => this.#answering(callId))
    try {
      const record = await this.store.get(callId)
      const problem = await this.#check(callId, record, { token, replay: () => undefined, ...(caller && { caller }), ...(trusted && { trusted: true as const }) })
      // 'running' with its lock free and no copy here: the instance running it stopped (a live one
      // renews the lock). Nothing will ever finish it, so the abort is recorded in its place.
      const orphaned = problem?.code === 'BUSY' && record!.status === 'running' && !live
      if (problem && !orphaned) return problem
      if (orphaned) reason = `${reason} (the server running it had stopped)`
      if (!(await this.#finishInStore(record!, { status: 'aborted', reason }))) return refusal('BUSY', `Tool call "${callId}" changed while it was being aborted; try again.`)
      const completed = completedSteps(record!.journal)
      return { ok: true, wasRunning: false, toolName: record!.tool, ...(completed.length > 0 && { completed }) }
    } finally {
      await this.store.unlock(lease).catch(() => undefined)
    }
  }

  /** How a finished call ended ("it completed", "it was aborted: ..."), if the store remembers it. */
  async finishedHow(callId: string): Promise<string | undefined> {
    const record = await this.store.get(callId)
    return record?.outcome ? describeOutcome(record.outcome) : undefined
  }

  list(): LiveCallInfo[] {
    return [...this.#calls.values()].map((c) => ({
      callId: c.callId,
      toolName: c.toolName,
      client: c.client,
      status: c.host.status(),
      createdAt: c.createdAt,
      pendingKey: c.host.pending()?.key,
    }))
  }

  /**
   * Stop every live call and end the registry's scope. Their records stay as they were: a call
   * waiting for an answer can be resumed by the next process using the same store.
   */
  async close(reason = 'the server closed'): Promise<void> {
    for (const call of this.#calls.values()) call.superseded = true
    await Promise.all([...this.#calls.values()].map((call) => call.host.abort(reason)))
    await Promise.all([...this.#calls.values()].map((call) => call.writes))
    await this.#destroy()
  }

  /**
   * Keep a timeline of every call from now on, and of the last `keep` that ended: what the dev
   * panel shows (`activity()`). Off until asked: a server in production keeps none.
   */
  recordActivity(keep = 50): void {
    this.#activity ??= new ActivityLog(keep, this.clock)
  }

  /** The calls seen since `recordActivity()`: the live ones first, then those that ended, the latest first. */
  activity(): CallActivity[] {
    return (
      this.#activity?.list((callId) => {
        const live = this.#calls.get(callId)
        return live && { status: this.isParked(live) ? 'waiting' : live.host.status(), pending: live.host.pending() }
      }) ?? []
    )
  }

  /** Stop a local copy that is not the current one any more, without recording anything for it. */
  #supersede(call: LiveCall<X>, reason = 'another instance advanced this call'): void {
    this.#activity?.get(call.callId)?.unfollow(reason === HIBERNATED ? 'let go of from memory while it waits; an answer replays it' : `this copy stopped: ${reason}`)
    call.superseded = true
    this.#forget(call)
    void call.host.abort(reason)
  }

  #forget(call: LiveCall<X>): void {
    this.#parked.remove(call)
    if (this.#calls.get(call.callId) === call) this.#calls.delete(call.callId)
  }

  #end(call: LiveCall<X>, outcome: BridgeOutcome<unknown>): void {
    this.#forget(call)
    // A copy let go of is not the call ending: it waits in the store (its timeline said so).
    if (!this.#calls.has(call.callId) && !call.superseded) this.#activity?.ended(call.callId)
    if (call.superseded) call.trace.stopped(outcome.status === 'aborted' ? outcome.reason : outcome.status)
    else call.trace.ended(outcome)
    // The person is told the call cannot go on; what changed is for the developers.
    if (outcome.status === 'failed' && outcome.error instanceof JournalDivergenceError)
      this.#log.error({ callId: call.callId, tool: call.toolName, err: outcome.error }, `tool call ${call.callId}: ${outcome.error.message}`)
    if (call.superseded) {
      call.writes = call.writes.then(() => this.#unlock(call))
      return
    }
    const change: RecordChange = { status: outcome.status, journal: [...call.host.journal], outcome: storedOutcome(outcome) }
    // A call that never stored anything (it ended before its first step or question) needs no
    // record; it is no longer counted as held.
    if (call.revision === 0 && call.host.journal.length === 0) {
      call.writes = call.writes.then(() => this.store.release(call)).catch(() => undefined)
      return
    }
    call.writes = writeRecord(this.#writes, call, change)
      .catch(() => undefined)
      .then(() => this.#unlock(call))
  }

  /**
   * Resolves once everything the call wrote is stored and its lock released: after this, any
   * instance sees how it ended. Report a call's end only then, or a quick follow-up request could
   * find it still locked.
   */
  settled(call: LiveCall<X>): Promise<void> {
    return call.writes
  }

  async #unlock(call: LiveCall<X>): Promise<void> {
    const lease = call.lease
    call.lease = undefined
    if (lease) await this.store.unlock(lease).catch(() => undefined)
  }
}

/** A finished call's outcome, read from its terminal event (available synchronously, unlike `outcome`). */
function endOf(events: readonly BridgeEvent[]): BridgeOutcome<unknown> {
  const last = events[events.length - 1]
  if (last?.type === 'completed') return { status: 'completed', result: last.result }
  if (last?.type === 'failed') return { status: 'failed', error: last.error }
  return { status: 'aborted', reason: last?.type === 'aborted' ? last.reason : 'ended' }
}

/** What a call's record fixes for every copy of it: its id, arguments, client, caller and origin. */
function recorded(record: CallRecord) {
  return {
    callId: record.callId,
    params: record.params,
    client: record.client,
    paramsDigest: record.paramsDigest,
    origin: record.origin,
    ...(record.auth && { auth: record.auth }),
  }
}

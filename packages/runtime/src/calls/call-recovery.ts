/**
 * Carrying on a call whose server stopped while running it: its lock taken (of all the instances
 * trying, one wins), its journal replayed into a new copy here (no step runs again), and its
 * surface's plan driving it to its next stop. A call of another surface, finished, held here, or
 * of a tool not served here is left (its lock given back) for whoever can carry it on.
 */
import { TERMINAL_STATUSES } from '../bridge/events.ts'
import type { McpBridgeLogger } from '../telemetry/logger.ts'
import type { CallCopies } from './call-copies.ts'
import { letGo } from './let-go.ts'
import type { LiveCall } from './live-call.ts'
import type { RecoveryPlan } from './registry-types.ts'
import type { CallLease, CallRecord, CallStore, CallSurface } from './stores/call-store.ts'

export interface RecoveryContext<X> {
  copies: CallCopies<X>
  store: CallStore
  instanceId: string
  leaseMs: number
  surface: CallSurface
  log: McpBridgeLogger
  /** How this surface runs a recovered call on (undefined: not a tool served here). */
  plan: (record: CallRecord) => RecoveryPlan<X> | undefined
}

export class CallRecovery<X> {
  /** Recovered calls being driven now (the scan takes no more than its concurrency). */
  #busy = 0

  constructor(private readonly r: RecoveryContext<X>) {}

  get busy(): number {
    return this.#busy
  }

  /** Recover one stranded call: take its lock (one instance wins), replay its journal, drive it on. */
  async recoverOne(callId: string): Promise<void> {
    const lease = await this.r.store.lock(callId, this.r.instanceId, this.r.leaseMs)
    if (!lease) return
    const record = await this.r.store.get(callId).catch((error: unknown) => {
      this.r.log.warn({ callId, err: error }, `stranded tool call ${callId} could not be read; a later scan tries again`)
      return undefined
    })
    await this.carryOn(lease, record)
  }

  /** Run a stranded call on from its journal, holding its lock (released if it is not one to recover). */
  async carryOn(lease: CallLease, record: CallRecord | undefined): Promise<void> {
    const { copies, store, log } = this.r
    const callId = lease.callId
    this.#busy++
    try {
      const ours = record && record.surface === this.r.surface && record.status === 'running' && !record.outcome && !copies.get(callId)
      const plan = ours ? this.r.plan(record) : undefined
      // A tool not served here, or no room: left for another instance (or a later scan).
      const leave = () => letGo(store, lease)
      if (!plan || !record) return void (await leave())
      let call: LiveCall<X>
      try {
        call = copies.replay(plan.spec, record, { kind: 'recover' })
      } catch (error) {
        log.error({ callId, tool: record.tool, err: error }, `stranded tool call ${callId} (${record.tool}) could not be replayed here: ${(error as Error).message}`)
        return void (await leave())
      }
      call.lease = lease
      log.info(
        { callId, tool: record.tool, stoppedServer: record.owner, journalEntries: record.journal.length },
        `recovered tool call ${callId} (${record.tool}): its server (${record.owner}) stopped while running it; running it on from its journal (${record.journal.length} entries)`,
      )
      try {
        await plan.drive(call, record)
      } catch (error) {
        log.error({ callId, tool: record.tool, err: error }, `recovered tool call ${callId} (${record.tool}) could not be carried on: ${(error as Error).message}`)
        if (!TERMINAL_STATUSES.has(call.host.status()) && !copies.isParked(call)) await call.host.abort('it could not be carried on after its server stopped')
      }
    } finally {
      this.#busy--
    }
  }
}

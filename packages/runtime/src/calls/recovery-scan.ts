/**
 * Finds the calls whose instance stopped while running them — their record says `running`, their
 * lock lapsed (a live instance renews it: `lease-keeper.ts`) — and hands each to `recover`, which
 * takes its lock first, so of all the instances scanning one wins. At start-up and every fifth
 * of a lease (a stranded call waits at most that long past its lease: 12 s from a kill at the
 * default 10 s; the scan reads an index of running calls, so it costs little), at most
 * `concurrency` at a time; each recovery runs as a child of the scan, so it ends with the scope
 * the scan is spawned in.
 */
import { call as callPromise, spawn, type Operation } from 'effection'
import type { McpBridgeLogger } from '../telemetry/logger.ts'
import type { Clock } from '../time/clock.ts'
import type { CallStore, CallSurface } from './stores/call-store.ts'

/** Scans per lease: how soon after its lease lapses a stranded call is found. */
export const SCANS_PER_LEASE = 5

export interface StrandedScan {
  store: CallStore
  /** Only this surface's calls: another surface's are left to it. */
  surface: CallSurface
  clock: Clock
  leaseMs: number
  concurrency: number
  /** Recovered calls being carried on now (by this scan or a request that found one). */
  busy(): number
  /** Whether this process holds a copy of the call (then it is not stranded here). */
  held(callId: string): boolean
  recover(callId: string): Promise<void>
  log: McpBridgeLogger
}

export function* scanStranded(scan: StrandedScan): Operation<void> {
  for (;;) {
    const room = scan.concurrency - scan.busy()
    if (room > 0) {
      // A store that does not answer: the next scan asks again (the requests it fails report it).
      const ids = yield* callPromise(() => scan.store.stranded(room, scan.surface).catch(() => [] as string[]))
      for (const id of ids) {
        if (scan.held(id)) continue
        yield* spawn(function* () {
          try {
            yield* callPromise(() => scan.recover(id))
          } catch (error) {
            scan.log.error({ callId: id, err: error }, `stranded tool call ${id} could not be recovered here: ${(error as Error).message}`)
          }
        })
      }
    }
    yield* scan.clock.sleep(scan.leaseMs / SCANS_PER_LEASE)
  }
}

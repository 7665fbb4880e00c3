/**
 * A running call holds its store lock for as long as it runs, renewed here every third of the
 * lease: so an instance that finds a call's record `running` but its lock free knows the instance
 * running it is gone (see `recovery-scan.ts`). A call running before its first record (no lock
 * yet) has its claim on the held-call count renewed the same way: claims last a lease, so a crash
 * leaves no count past a lease, and a live call keeps its count however long it runs. Runs for as
 * long as the scope it is spawned in.
 */
import { call as callPromise, type Operation } from 'effection'
import type { Clock } from '../time/clock.ts'
import type { LiveCall } from './live-call.ts'
import type { CallStore } from './stores/call-store.ts'

export interface LeaseKeeping<X> {
  store: CallStore
  instanceId: string
  leaseMs: number
  clock: Clock
  /** The calls this process runs now, holding their locks (not parked). */
  running(): Iterable<LiveCall<X>>
  /** Stop a copy whose call another instance took over (nothing is recorded for it). */
  supersede(call: LiveCall<X>, reason: string): void
  /** Extend the claim on the held-call count of a call with no record yet (by a lease from now). */
  renewClaim(call: LiveCall<X>): Promise<unknown>
}

export function* keepLeases<X>(keeping: LeaseKeeping<X>): Operation<void> {
  for (;;) {
    yield* keeping.clock.sleep(keeping.leaseMs / 3)
    const running = [...keeping.running()]
    const held = running.filter((call) => call.lease)
    // A store that does not answer: the claim is renewed at the next turn (it lasts a lease).
    const unrecorded = running.filter((call) => !call.lease && call.revision === 0).map((call) => keeping.renewClaim(call).catch(() => undefined))
    yield* callPromise(() => Promise.all([...held.map((call) => renew(keeping, call)), ...unrecorded]))
  }
}

/**
 * Renew a running call's lease. One that lapsed (this process stalled past it) is taken again if
 * nobody took it meanwhile; if another instance did, it runs the call now and this copy stops.
 * A store that does not answer changes nothing: nobody else can take the call over without it.
 */
async function renew<X>({ store, instanceId, leaseMs, supersede }: LeaseKeeping<X>, call: LiveCall<X>): Promise<void> {
  const lease = call.lease!
  try {
    if (await store.renew(lease, leaseMs)) return
    const again = await store.lock(call.callId, instanceId, leaseMs)
    if (call.lease !== lease) {
      if (again) await store.unlock(again)
      return
    }
    if (again && (await store.get(call.callId))?.revision === call.revision) call.lease = again
    else {
      if (again) await store.unlock(again)
      call.lease = undefined
      supersede(call, 'its lease lapsed and another instance took the call over')
    }
  } catch {
    // Retried at the next renewal.
  }
}

/**
 * Giving a call's lock back. It never fails its caller: a store that does not answer keeps the
 * lock only until its lease lapses (`limits.lockLeaseMs`), after which any instance may take the
 * call — so a lock not given back delays the call's next request, and loses nothing.
 */
import type { CallLease, CallStore } from './stores/call-store.ts'

export function letGo(store: CallStore, lease: CallLease): Promise<void> {
  return store.unlock(lease).then(
    () => undefined,
    () => undefined,
  )
}

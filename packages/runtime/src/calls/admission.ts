/**
 * Whether a new call may be held: the limits the store keeps for every instance sharing it. Its
 * client may hold at most `maxCallsPerClient` unfinished calls (fewer past half full: fair
 * shares), all clients `maxActiveCalls`. When that is full, the longest-waiting call of the network
 * holding the most makes room (`roomFor`: networks, not addresses, so many addresses of one network
 * cannot fill the server for everyone else). An answer to a call that exists is never refused
 * here: only new calls are admitted.
 */
import { TooManyCallsError } from '../errors/call-limit-errors.ts'
import { callMetrics } from '../telemetry/metrics.ts'
import type { Clock } from '../time/clock.ts'
import { roomFor, type Holding } from './network-shares.ts'
import type { CallStore, CallSurface, HeldBy } from './stores/call-store.ts'

/** How many evicted calls that turned out not to be waiting (answered meanwhile) are passed over before refusing. */
const EVICT_TRIES = 3

/** The options that set the limits, as refusals name them (the same on every surface). */
const ALL = 'limits.maxActiveCalls'
const PER_CLIENT = 'limits.maxCallsPerClient'

export interface AdmissionLimits {
  maxActiveCalls: number
  maxCallsPerClient: number
  /** How long a claim counts before the call's first record says what it is (its wait and lease). */
  claimMs: number
  surface: CallSurface
}

/**
 * Count a new call as held by its client in the store, or throw `TooManyCallsError` naming the
 * limit that is full. `evict` ends a waiting call to make room (false: it is not waiting any more).
 */
export async function admit(
  store: CallStore,
  clock: Clock,
  limits: AdmissionLimits,
  call: { callId: string; client: string },
  evict: (callId: string, reason: string) => Promise<boolean>,
): Promise<void> {
  const { maxActiveCalls, maxCallsPerClient } = limits
  // Counted until its first record says what it is; a call that never writes one is released.
  const claim = { ...call, until: clock.now() + limits.claimMs }
  const bounds = { perClient: maxCallsPerClient, total: maxActiveCalls }
  let admission = await store.admit(claim, bounds)
  if (admission.admitted) return
  callMetrics.refused({ 'mcp_bridge.limit': admission.full === 'client' ? PER_CLIENT : ALL, 'mcp_bridge.surface': limits.surface })
  if (admission.full === 'client') {
    const shrunk =
      admission.share !== undefined && admission.all !== undefined ? { held: admission.held, share: admission.share, all: admission.all, total: maxActiveCalls } : undefined
    throw new TooManyCallsError(maxCallsPerClient, PER_CLIENT, true, shrunk)
  }
  const reason = `the server was full (${ALL}) and this call's network held the most calls waiting; it was ended to make room for another client's`
  const holdings = holdingsOf(admission.holders ?? [], call.client, admission.clientHeld ?? 0)
  for (let tries = 0; tries < EVICT_TRIES; tries++) {
    const victim = roomFor(call.client, holdings)
    if (victim === undefined) break
    if (await evict(victim.oldest!, reason)) {
      admission = await store.admit(claim, bounds)
      if (admission.admitted) return
      break
    }
    victim.oldest = undefined // no longer waiting (answered, or running): another makes room
  }
  throw new TooManyCallsError(maxActiveCalls, ALL)
}

/** The store's holders as `roomFor` weighs them (each its own object, so one found not waiting can be passed over), the admitted call's client among them. */
function holdingsOf(holders: HeldBy[], client: string, clientHeld: number): Array<Holding<string>> {
  const holdings = holders.map((h) => ({ client: h.client, held: h.held, oldest: h.oldest as string | undefined, since: h.until }))
  if (clientHeld > 0 && !holders.some((h) => h.client === client)) holdings.push({ client, held: clientHeld, oldest: undefined, since: Infinity })
  return holdings
}

/**
 * The `limits` of a chat surface (the chat handler, the AI SDK bridge) as the call registry takes
 * them, with the option names its refusals quote ("limits.maxActiveCalls").
 */
import type { CallRegistryOptions } from '../calls/registry-types.ts'
import type { ChatLimits } from './engine.ts'

type RegistryLimits = Pick<ChatLimits, 'idleTimeoutMs' | 'maxActiveCalls' | 'maxCallsPerClient' | 'warmCalls' | 'lockLeaseMs'>

export function registryLimits(limits: RegistryLimits) {
  return {
    idleTimeoutMs: limits.idleTimeoutMs,
    idleTimeoutOption: 'limits.idleTimeoutMs',
    maxCalls: limits.maxActiveCalls,
    maxCallsOption: 'limits.maxActiveCalls',
    maxCallsPerClient: limits.maxCallsPerClient,
    maxCallsPerClientOption: 'limits.maxCallsPerClient',
    warmCalls: limits.warmCalls,
    leaseMs: limits.lockLeaseMs,
  } satisfies Partial<CallRegistryOptions<unknown>>
}

/**
 * The `requestState` of a suspended call (MCP 2026-07-28 multi round-trip requests; the SDK's
 * legacy shim uses the same rounds for 2025-11-25 clients): which call, what it waits for, and
 * the revision of the call's stored record it was minted at. The journal is not in it: the call
 * store holds it, so a state of a call that moved on or finished is refused wherever it is
 * replayed. Sealed with an HMAC (`sealed-state.ts`): the client can read it but not forge, alter or
 * extend it, and it expires with the wait for input. It is bound to the method and the
 * authenticated client, and carries a digest of the arguments, so it cannot be moved to another
 * call either.
 */
import { createHash } from 'node:crypto'
import type { RequestStateCodec } from '@modelcontextprotocol/server'
import { createSealedStateCodec } from './sealed-state.ts'
import { principalOf } from './auth.ts'

/** What the call waits for; `inputKey` is the key of the request in `inputRequests`. */
export type InputWait = { kind: 'elicit'; inputKey: string; elicitId: string } | { kind: 'sample'; inputKey: string }

/**
 * Where the question sits in the call's journal (1-based): input keys end with it
 * (`elicit-pickSeat-2`, `sample-3`). A journal this long holds the question's answer.
 */
export function questionSeq(wait: InputWait): number {
  return Number(/-(\d+)$/.exec(wait.inputKey)?.[1] ?? Number.POSITIVE_INFINITY)
}

/**
 * What an MCP 2026-07-28 `requestState` carries (sealed and signed, so a client can neither read nor forge it): the call, its tool and arguments' digest, what it waits for, and the record's revision.
 */
export interface CallState {
  v: 2
  callId: string
  tool: string
  /** sha256 of the canonical JSON of the call's arguments. */
  args: string
  wait: InputWait
  /** The revision of the call's stored record when this state was minted. */
  rev: number
}

export function createCallStateCodec(key: Uint8Array | string | (() => Promise<Uint8Array>), ttlSeconds: number): RequestStateCodec<CallState> {
  return createSealedStateCodec<CallState>({
    key,
    ttlSeconds,
    // With OAuth: the token's client and whom it acts for; a state is no use to another caller.
    bind: (ctx) => `${ctx.mcpReq.method}\u0000${principalOf(ctx.http?.authInfo)}`,
  })
}

export function digestArguments(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('base64url')
}

/** JSON with object keys sorted, so the same arguments always digest the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

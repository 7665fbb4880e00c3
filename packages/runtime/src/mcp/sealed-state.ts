/**
 * A sealed `requestState`: the same construction as the SDK's `createRequestStateCodec` (a JSON
 * envelope `{ p, exp, b? }`, base64url, HMAC-SHA256 over a domain-separated prefix, a truncated
 * bind tag), computed with `node:crypto`'s synchronous HMAC instead of WebCrypto. WebCrypto signs
 * on the thread pool: four round trips through it per elicitation (mint and verify, each with its
 * bind tag) were a quarter of an MCP call's wall time, spent idle.
 *
 * Fail-closed: a state that is malformed, forged, expired or minted for another binding throws.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server'
import { OptionsError } from '../errors/options-error.ts'
import { RequestStateRefusedError } from '../errors/server-errors.ts'

export interface SealedStateOptions {
  /** The HMAC secret, at least 32 bytes (a string is taken as UTF-8), or where to get it when first needed (the store's). */
  key: Uint8Array | string | (() => Promise<Uint8Array>)
  /** How long a minted state stays valid. */
  ttlSeconds: number
  /** Bound at mint and checked at verify: a state minted under another value is refused. */
  bind?: (ctx: ServerContext) => string
  /** Epoch milliseconds (tests pass a clock). */
  now?: () => number
}

const PREFIX = 'mb1.'
const BIND_LABEL = 'mcp-bridge.requestState.bind:'

export function createSealedStateCodec<T>(options: SealedStateOptions): RequestStateCodec<T> {
  const given = options.key
  const checked = (key: Buffer) => {
    if (key.byteLength < 32) throw new OptionsError('createMcpServer', { option: 'secret', problem: `secret must be at least 32 bytes (got ${key.byteLength}).` })
    return key
  }
  // A key given is checked now; the store's when the first state is minted or verified (fetched once).
  const fixed = typeof given === 'function' ? undefined : checked(typeof given === 'string' ? Buffer.from(given, 'utf8') : Buffer.from(given))
  let fetched: Promise<Buffer> | undefined
  const keyOf = (): Buffer | Promise<Buffer> => {
    if (fixed) return fixed
    fetched ??= (given as () => Promise<Uint8Array>)().then(
      (bytes) => checked(Buffer.from(bytes)),
      (error: unknown) => {
        fetched = undefined // asked again with the next state: the store may answer then
        throw error
      },
    )
    return fetched
  }
  if (!Number.isFinite(options.ttlSeconds) || options.ttlSeconds <= 0)
    throw new OptionsError('createMcpServer', { option: 'limits.idleTimeoutMs', problem: 'the state lifetime must be a positive number of seconds.' })
  const now = options.now ?? (() => Date.now())
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()
  const bindTag = (key: Buffer, ctx: ServerContext | undefined): string | undefined => {
    if (!options.bind) return undefined
    if (!ctx) throw new RequestStateRefusedError('no-context')
    return hmac(key, BIND_LABEL + options.bind(ctx))
      .subarray(0, 16)
      .toString('base64url')
  }
  return {
    async mint(payload, ctx) {
      const key = await keyOf()
      const mac = (text: string) => hmac(key, text)
      const b = bindTag(key, ctx)
      const envelope = { p: payload, exp: Math.floor(now() / 1000) + options.ttlSeconds, ...(b !== undefined && { b }) }
      const body = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url')
      return `${PREFIX}${body}.${mac(PREFIX + body).toString('base64url')}`
    },
    async verify(state, ctx) {
      const key = await keyOf()
      const mac = (text: string) => hmac(key, text)
      const dot = state.lastIndexOf('.')
      if (!state.startsWith(PREFIX) || dot <= PREFIX.length) throw new RequestStateRefusedError('malformed')
      const body = state.slice(PREFIX.length, dot)
      const given = Buffer.from(state.slice(dot + 1), 'base64url')
      const expected = mac(PREFIX + body)
      if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) throw new RequestStateRefusedError('mac')
      let envelope: { p?: unknown; exp?: unknown; b?: unknown }
      try {
        envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof envelope
      } catch {
        throw new RequestStateRefusedError('malformed')
      }
      if (typeof envelope.exp !== 'number' || envelope.exp < Math.floor(now() / 1000)) throw new RequestStateRefusedError('expired')
      const tag = bindTag(key, ctx)
      if (tag !== undefined) {
        if (typeof envelope.b !== 'string' || envelope.b.length !== tag.length || !timingSafeEqual(Buffer.from(envelope.b), Buffer.from(tag)))
          throw new RequestStateRefusedError('bind')
      } else if (envelope.b !== undefined) throw new RequestStateRefusedError('bind')
      return envelope.p as T
    },
  }
}

/**
 * Who a request is from, for per-client limits. A fetch `Request` does not carry its address, so
 * the Node adapter records it beside each request it builds; elsewhere (Workers, Deno) give the
 * handlers a `clientKey` of your own.
 *
 * The default key is the address's **network**, not the address: one IPv6 host holds a whole /64,
 * so keying by address would let it take every place as 2^64 "clients". IPv4 addresses stay
 * whole by default (a /24 is often many people behind one provider); `createClientKey` sets both,
 * and — behind proxies you run — reads the client's address from `X-Forwarded-For` / `Forwarded`.
 *
 * A key also names the networks around its client, coarse to fine (`203.0.113.0/24 > 203.0.113.7`,
 * `2001:db8:1::/48 > 2001:db8:1::/56 > 2001:db8:1:2::/64`): limits count the client (the whole
 * key), and when the server is full, room is made in the most-represented network first
 * (`network-shares.ts`), so many addresses of one network weigh as one there.
 */
import { isIPv4, isIPv6 } from 'node:net'
import { z } from 'zod/v4'
import { summarizeIssues } from '../errors/issues.ts'
import { OptionsError } from '../errors/options-error.ts'

const addresses = new WeakMap<Request, string>()

export function recordClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

/** The remote address the Node adapter saw, if this request came through it. */
export function clientAddressOf(request: Request): string | undefined {
  return addresses.get(request)
}

/**
 * Who a request is from, for quotas. A key of your own may name the groups its client belongs to
 * as the default key names networks: coarse to fine, joined by `' > '` (`'org-7 > user-42'`), so
 * one group's many clients weigh as one when the server is full.
 */
export type ClientKey = (request: Request) => string

/** Between the levels of a client key: `203.0.113.0/24 > 203.0.113.7`. */
export const NETWORK_SEPARATOR = ' > '

/** The levels of a client key, coarse to fine: its networks, then the client (the last). */
export function networksOf(key: string): string[] {
  return key.split(NETWORK_SEPARATOR)
}

/**
 * How `createClientKey` tells clients apart: how many proxies to trust for `X-Forwarded-For`, and how much of an address names one client.
 */
export interface ClientKeyOptions {
  /**
   * How many proxies of yours stand in front of the server (default 0: none). With `n`, the
   * client is the address the n-th proxy from the server saw: the n-th entry from the right of
   * `X-Forwarded-For` (or of `Forwarded: for=`). Never more than you run: a client can write
   * any entries to the left of yours.
   */
  trustProxyHops?: number
  /** Bits of an IPv4 address that name a client (default 32: the whole address). */
  ipv4PrefixBits?: number
  /** Bits of an IPv6 address that name a client (default 64: one site's network). */
  ipv6PrefixBits?: number
  /**
   * The IPv4 networks around a client, as prefix bits (default `[24]`, or what of it is shorter
   * than `ipv4PrefixBits`): when the server is full, room is made in the network holding the most. `[]`: none.
   */
  ipv4NetworkBits?: number[]
  /** The IPv6 networks around a client (default `[56, 48]`: a customer's site, a provider's allocation). `[]`: none. */
  ipv6NetworkBits?: number[]
}

const networkBits = (min: number, max: number) => z.array(z.number().int().min(min).max(max)).max(8).optional()

const optionsSchema = z
  .object({
    trustProxyHops: z.number().int().min(0).max(10, 'at most 10: the proxies you run in front').optional(),
    ipv4PrefixBits: z.number().int().min(8).max(32).optional(),
    ipv6PrefixBits: z.number().int().min(16).max(128).optional(),
    ipv4NetworkBits: networkBits(8, 31),
    ipv6NetworkBits: networkBits(16, 127),
  })
  .strict()
  .superRefine((o, ctx) => {
    for (const [family, own, client] of [
      ['ipv4', o.ipv4NetworkBits, o.ipv4PrefixBits ?? 32],
      ['ipv6', o.ipv6NetworkBits, o.ipv6PrefixBits ?? 64],
    ] as const) {
      const wide = own?.find((bits) => bits >= client)
      if (wide !== undefined) {
        ctx.addIssue({ code: 'custom', path: [`${family}NetworkBits`], message: `${wide} is not shorter than ${family}PrefixBits (${client}); a network holds its clients` })
      }
    }
  })

/**
 * Who a request is from, for per-client limits: its address (behind `trustProxyHops` proxies), grouped by
 * prefix so one client cannot pass as many from its own IPv6 range.
 *
 * @example
 * ```ts
 * import { createChatHandler, createClientKey } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * // Behind one load balancer that sets X-Forwarded-For:
 * const clientKey = createClientKey({ trustProxyHops: 1 })
 * export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({}), clientKey })
 * ```
 */
export function createClientKey(options: ClientKeyOptions = {}): ClientKey {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) throw new OptionsError('createClientKey', summarizeIssues(checked.error.issues))
  const { trustProxyHops = 0, ipv4PrefixBits = 32, ipv6PrefixBits = 64 } = checked.data
  // The default networks are those wider than the client's own prefix.
  const { ipv4NetworkBits = [24].filter((b) => b < ipv4PrefixBits), ipv6NetworkBits = [56, 48].filter((b) => b < ipv6PrefixBits) } = checked.data
  // Coarse to fine, the client's own prefix last.
  const ladder = (own: number[], client: number) => [...new Set(own)].sort((a, b) => a - b).concat(client)
  const ipv4 = ladder(ipv4NetworkBits, ipv4PrefixBits)
  const ipv6 = ladder(ipv6NetworkBits, ipv6PrefixBits)
  return (request) => {
    const address = trustProxyHops === 0 ? clientAddressOf(request) : forwardedAddress(request, trustProxyHops)
    return address ? networksKey(address, ipv4, ipv6) : 'unknown'
  }
}

/** `address`'s networks at each prefix length of its family, joined coarse to fine. */
function networksKey(address: string, ipv4: number[], ipv6: number[]): string {
  const plain = plainAddress(address)
  const ladder = isIPv4(plain) ? ipv4 : isIPv6(plain) ? ipv6 : undefined
  if (!ladder) return address
  return ladder.map((bits) => networkOf(plain, bits, bits)).join(NETWORK_SEPARATOR)
}

/** The address without its zone, and an IPv4-mapped IPv6 address as the IPv4 address it is. */
function plainAddress(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address.replace(/%.*$/, '')
}

/**
 * The client key used when none is given: the socket's address, no proxy trusted.
 */
export const defaultClientKey: ClientKey = createClientKey()

/** The address the `hops`-th proxy from the server saw, from the forwarding headers. */
function forwardedAddress(request: Request, hops: number): string | undefined {
  const forwarded = request.headers.get('forwarded')
  const chain = forwarded
    ? [...forwarded.matchAll(/for="?\[?([^\]";,]+)\]?(?::\d+)?"?/gi)].map((m) => m[1]!)
    : (request.headers.get('x-forwarded-for') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
  // The last proxy appended what it saw last; the one before it, before; and so on.
  const entry = chain[chain.length - hops]
  return entry ?? clientAddressOf(request)
}

/** `2001:db8:1:2::/64`, `203.0.113.7` (or `203.0.113.0/24`): the part of an address that names a client. */
export function networkOf(address: string, ipv4Bits = 32, ipv6Bits = 64): string {
  const plain = plainAddress(address)
  if (isIPv4(plain)) {
    if (ipv4Bits === 32) return plain
    const value = plain.split('.').reduce((n, part) => n * 256 + Number(part), 0)
    const masked = Math.floor(value / 2 ** (32 - ipv4Bits)) * 2 ** (32 - ipv4Bits)
    return `${[24, 16, 8, 0].map((shift) => Math.floor(masked / 2 ** shift) % 256).join('.')}/${ipv4Bits}`
  }
  if (!isIPv6(plain)) return address
  // Each 16-bit group keeps the bits of the prefix that fall in it.
  const kept = expandIPv6(plain).map((g, i) => {
    const bits = Math.max(0, Math.min(16, ipv6Bits - i * 16))
    return (g & (0xffff << (16 - bits)) & 0xffff).toString(16)
  })
  return `${kept.join(':')}/${ipv6Bits}`
}

/** The eight 16-bit groups of an IPv6 address (`::` filled with zeros; an IPv4 tail is two groups). */
function expandIPv6(address: string): number[] {
  const [head = '', tail] = address.split('::')
  const groupsOf = (text: string) => text.split(':').filter(Boolean).flatMap(group)
  const left = groupsOf(head)
  if (tail === undefined) return left
  const right = groupsOf(tail)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

function group(text: string): number[] {
  if (!text.includes('.')) return [parseInt(text, 16)]
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number)
  return [a * 256 + b, c * 256 + d]
}

/**
 * Which hosts are this machine: localhost, *.localhost, 127/8 and [::1]. The hosts every handler
 * answers by default (DNS-rebinding protection, `request-origin.ts`), and all the Vite plugin's
 * dev panel answers. Zod-free: the plugin loads it through `@mcp-bridge/runtime/build`.
 */

/**
 * Whether a `Host` header (a name and maybe a port) names this machine.
 *
 * @example
 * ```ts
 * import { isLoopbackHost } from '@mcp-bridge/runtime/build'
 *
 * isLoopbackHost('localhost:5173') // true
 * isLoopbackHost('[::1]:5173') // true
 * isLoopbackHost('192.168.1.20:5173') // false: the LAN, under `vite --host`
 * ```
 */
export function isLoopbackHost(host: string): boolean {
  return isLoopback(hostnameOf(host))
}

/** The name of a `Host` header, lower-cased, without its port (an IPv6 literal keeps its brackets). */
export function hostnameOf(host: string): string {
  const lower = host.toLowerCase()
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1)
  const colon = lower.lastIndexOf(':')
  return colon === -1 ? lower : lower.slice(0, colon)
}

/** Whether a host name (no port; see `hostnameOf`) is this machine's. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname === '[::1]'
}

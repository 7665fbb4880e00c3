/**
 * The network address a request came from, for per-client limits. A fetch `Request` does not
 * carry it, so the Node adapter records it beside each request it builds; elsewhere (Workers,
 * Deno, behind a proxy) give the handlers a `clientKey` of your own, e.g. from a trusted header.
 */
const addresses = new WeakMap<Request, string>()

export function recordClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

/** The remote address the Node adapter saw, if this request came through it. */
export function clientAddressOf(request: Request): string | undefined {
  return addresses.get(request)
}

/** Who a request is from, for quotas: the remote address, else one shared bucket. */
export type ClientKey = (request: Request) => string

export const defaultClientKey: ClientKey = (request) => clientAddressOf(request) ?? 'unknown'

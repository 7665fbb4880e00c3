/**
 * Who a request is from: by default its address's network (an IPv6 host's /64 is one client; an
 * IPv4 address stays whole), and behind proxies you run, the address your proxy saw.
 */
import { describe, expect, it } from 'vitest'
import { createClientKey, defaultClientKey } from '../../src/server.ts'
import { OptionsError } from '../../src/errors.ts'
import { networkOf, networksOf, recordClientAddress } from '../../src/http/client-address.ts'

const from = (address: string | undefined, headers: Record<string, string> = {}) => {
  const request = new Request('http://127.0.0.1/api/chat', { headers })
  recordClientAddress(request, address)
  return request
}

describe('client keys', () => {
  it('name an IPv6 client by its /64 and an IPv4 client by its address, each with the networks around it', () => {
    expect(defaultClientKey(from('2001:db8:1:2:aaaa::1'))).toBe(defaultClientKey(from('2001:db8:1:2:bbbb::2')))
    expect(defaultClientKey(from('2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:0:0:0:0:0/48 > 2001:db8:1:0:0:0:0:0/56 > 2001:db8:1:2:0:0:0:0/64')
    expect(defaultClientKey(from('2001:db8:1:3::1'))).not.toBe(defaultClientKey(from('2001:db8:1:2::1')))
    expect(defaultClientKey(from('2001:db8:1:3ff::1'))).toBe('2001:db8:1:0:0:0:0:0/48 > 2001:db8:1:300:0:0:0:0/56 > 2001:db8:1:3ff:0:0:0:0/64')
    expect(defaultClientKey(from('203.0.113.7'))).toBe('203.0.113.0/24 > 203.0.113.7')
    expect(defaultClientKey(from('::ffff:203.0.113.7'))).toBe('203.0.113.0/24 > 203.0.113.7') // the same client, dual-stack
    expect(defaultClientKey(from(undefined))).toBe('unknown')
    expect(networksOf(defaultClientKey(from('203.0.113.7')))).toEqual(['203.0.113.0/24', '203.0.113.7'])
    expect(networkOf('203.0.113.77', 24)).toBe('203.0.113.0/24')
    expect(networkOf('2001:db8:1:2::ffff:1.2.3.4', 32, 48)).toBe('2001:db8:1:0:0:0:0:0/48')
    expect(networkOf('2001:db8:abcd:12ff::1', 32, 52)).toBe('2001:db8:abcd:1000:0:0:0:0/52')
  })

  it('behind trusted proxies read the address the nearest of yours saw, never what the client wrote before it', () => {
    const oneProxy = createClientKey({ trustProxyHops: 1, ipv4NetworkBits: [], ipv6NetworkBits: [] })
    // The client wrote a fake entry; the proxy appended the address it saw.
    expect(oneProxy(from('10.0.0.5', { 'x-forwarded-for': '1.1.1.1, 198.51.100.9' }))).toBe('198.51.100.9')
    expect(createClientKey({ trustProxyHops: 2 })(from('10.0.0.5', { 'x-forwarded-for': '1.1.1.1, 198.51.100.9, 10.0.0.4' }))).toBe('198.51.100.0/24 > 198.51.100.9')
    expect(oneProxy(from('10.0.0.5', { forwarded: 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"' }))).toBe('2001:db8:cafe:0:0:0:0:0/64')
    // No header (a request that did not come through the proxy): its own address.
    expect(oneProxy(from('10.0.0.5'))).toBe('10.0.0.5')
  })

  it('set how much of an address names a client and which networks hold it', () => {
    expect(createClientKey({ ipv4PrefixBits: 24 })(from('203.0.113.77'))).toBe('203.0.113.0/24')
    expect(createClientKey({ ipv4NetworkBits: [16, 24, 16] })(from('203.0.113.77'))).toBe('203.0.0.0/16 > 203.0.113.0/24 > 203.0.113.77')
    expect(createClientKey({ ipv6NetworkBits: [32] })(from('2001:db8:1:2::1'))).toBe('2001:db8:0:0:0:0:0:0/32 > 2001:db8:1:2:0:0:0:0/64')
  })

  it('refuses options it cannot use, naming them', () => {
    expect(() => createClientKey({ trustProxyHops: -1 })).toThrow(OptionsError)
    expect(() => createClientKey({ ipv6PrefixBits: 200 })).toThrow(/ipv6PrefixBits: .*128/)
    expect(() => createClientKey({ ipv4NetworkBits: [24], ipv4PrefixBits: 24 })).toThrow(/ipv4NetworkBits: 24 is not shorter than ipv4PrefixBits \(24\)/)
    expect(() => createClientKey({ ipv6NetworkBits: [80] })).toThrow(/ipv6NetworkBits: 80 is not shorter than ipv6PrefixBits \(64\)/)
  })
})

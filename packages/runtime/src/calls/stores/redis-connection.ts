/**
 * The connection of the Redis call store: one `ioredis` client for a single primary (`url`), or
 * ioredis's `Cluster` client for a Redis Cluster (`url` as a list of node URLs, or one URL with
 * `cluster: true`; the client discovers the other nodes from any). Commands fail after two
 * attempts instead of queueing forever: a request never hangs on a Redis that is down.
 */
import { loadDriver } from './load-driver.ts'

/** The part of ioredis (`Redis` and `Cluster` alike) the store uses. */
export interface RedisClient {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>
  hget(key: string, field: string): Promise<string | null>
  sscan(key: string, cursor: string, ...args: Array<string | number>): Promise<[string, string[]]>
  srem(key: string, ...members: string[]): Promise<number>
  del(key: string): Promise<number>
  config(operation: 'GET', parameter: string): Promise<unknown>
  quit(): Promise<unknown>
  disconnect(): void
  on(event: 'error', listener: (error: Error) => void): unknown
}

interface IoRedis {
  Redis: new (url: string, options: Record<string, unknown>) => RedisClient
  Cluster: new (nodes: Array<{ host: string; port: number }>, options: Record<string, unknown>) => RedisClient
}

const FAIL_FAST = { maxRetriesPerRequest: 2, connectTimeout: 5000 }

export async function connectRedis(urls: readonly string[], cluster: boolean): Promise<RedisClient> {
  const ioredis = await loadDriver<IoRedis>('createRedisStore', 'ioredis', (m) => ({ Redis: m.Redis ?? m.default, Cluster: m.Cluster }))
  const client = cluster ? clusterClient(ioredis, urls) : new ioredis.Redis(urls[0]!, { ...FAIL_FAST, lazyConnect: false })
  // Connection errors surface on the commands that fail; without a listener ioredis would also print them.
  client.on('error', () => {})
  return client
}

function clusterClient(ioredis: IoRedis, urls: readonly string[]): RedisClient {
  const first = new URL(urls[0]!)
  const nodes = urls.map((url) => {
    const { hostname, port } = new URL(url)
    return { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) }
  })
  return new ioredis.Cluster(nodes, {
    // Every node of a cluster takes the same credentials and TLS; they are read from the first URL.
    redisOptions: {
      ...FAIL_FAST,
      ...(first.username && { username: decodeURIComponent(first.username) }),
      ...(first.password && { password: decodeURIComponent(first.password) }),
      ...(first.protocol === 'rediss:' && { tls: {} }),
    },
    clusterRetryStrategy: (attempts: number) => (attempts > 2 ? null : 200),
    // A slot moving between nodes is retried; a cluster that stays down fails the command.
    retryDelayOnClusterDown: 200,
  })
}

/**
 * A real Redis Cluster for tests: `size` `redis-server --cluster-enabled yes` nodes on free
 * 127.0.0.1 ports (and free cluster-bus ports), joined with `redis-cli --cluster create` (no
 * replicas), resolved once every node reports `cluster_state:ok`.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { freePort, type RedisProcess, startRedis } from './redis-server.ts'

const run = promisify(execFile)

export interface RedisCluster {
  /** One URL per node (any of them lets a client find the rest). */
  urls: string[]
  nodes: RedisProcess[]
  stop(): Promise<void>
}

export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const nodes: RedisProcess[] = []
  const stop = async () => void (await Promise.all(nodes.map((n) => n.stop())))
  try {
    for (let i = 0; i < size; i++) {
      const bus = await freePort()
      nodes.push(
        await startRedis(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-port', String(bus), '--appendonly', 'yes', '--appendfsync', 'everysec']),
      )
    }
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`)
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 })
    const deadline = Date.now() + 30_000
    for (const node of nodes) {
      for (;;) {
        const { stdout } = await run('redis-cli', ['-p', String(node.port), 'cluster', 'info'], { timeout: 10_000 })
        if (stdout.includes('cluster_state:ok')) break
        if (Date.now() > deadline) throw new Error(`the cluster did not come up within 30 s:\n${stdout}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { urls: nodes.map((n) => n.url), nodes, stop }
}

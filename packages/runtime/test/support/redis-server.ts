/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it) on a free 127.0.0.1 port, for
 * tests: persisting as the README asks (an append-only file, in a temp folder of its own), or as
 * `extra` arguments say. `startRedis()` resolves once it accepts connections; `stop()` ends it
 * and removes its folder.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RedisProcess {
  url: string
  port: number
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export async function startRedis(extra: readonly string[] = ['--appendonly', 'yes', '--appendfsync', 'everysec']): Promise<RedisProcess> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-redis-'))
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 20 s:\n${output}`)), 20_000)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`could not start redis-server (install it: apt-get install -y redis-server): ${error.message}`))
    })
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited (${code}):\n${output}`))
    })
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => stopServer(child, dir, 'SIGTERM'),
  }
}

/** End a test's server process with `signal` and remove its folder once it has exited. */
export function stopServer(child: ChildProcess, dir: string, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    // Retried: a folder still settling when its server has just exited is not a test's failure.
    const done = () => (rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }), resolve())
    if (child.exitCode !== null) return done()
    child.once('exit', done)
    child.kill(signal)
  })
}

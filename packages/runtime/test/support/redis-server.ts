/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it) on a free 127.0.0.1 port, with
 * no persistence, for tests. `startRedis()` resolves once it accepts connections; `stop()` ends it.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

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

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
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
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

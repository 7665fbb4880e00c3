/**
 * Child processes for the e2e tests: the dev server, the built server and the builds.
 *
 * Readiness is read from what the process prints. CI machines set `CI`, which makes Vite's colour
 * library turn colours on even without a TTY (`127.0.0.1:\e[1m5173\e[22m`), so output is matched
 * with ANSI escapes stripped and children get NO_COLOR as well. Every wait is bounded and its error
 * carries the process's last output, so a hang in CI says where it hung.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer as createNetServer, type AddressInfo } from 'node:net'

// oxlint-disable-next-line no-control-regex -- the escape that starts a terminal's colour codes
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/** A data folder for the servers this test file starts: their calls and tickets stay out of playground/data/. */
const DATA = mkdtempSync(join(tmpdir(), 'mcp-bridge-playground-data-'))
// Removed with the test file that made it (after its servers were stopped in its own afterAll);
// outside Vitest (the doc screenshots script), when the process exits.
if (process.env.VITEST) {
  const { afterAll } = await import('vitest')
  afterAll(() => rmSync(DATA, { recursive: true, force: true }))
} else process.once('exit', () => rmSync(DATA, { recursive: true, force: true }))

/**
 * The test's environment minus what must not reach the app (Vitest's, real-model variables,
 * a Redis URL), with a private data folder.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([k]) => !/^(NODE_ENV|VITEST|VITE_|TEST|OPENAI_|MODEL$|FORCE_COLOR|REDIS_URL$|MCP_BRIDGE_DATA$)/.test(k))
  return { ...Object.fromEntries(kept), NO_COLOR: '1', MCP_BRIDGE_DATA: DATA, ...extra }
}

export async function freePort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const { port } = probe.address() as AddressInfo
  await new Promise((r) => probe.close(r))
  return port
}

export interface Started {
  child: ChildProcess
  output: () => string
}

/** Spawns `node args` (or `command args`) and resolves once its output contains `ready` (ANSI stripped), or fails after `timeoutMs`. */
export function startServer(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: string; timeoutMs: number; what: string; command?: string }): Promise<Started> {
  const child = spawn(options.command ?? process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const tail = () => output.slice(-4000)
  return new Promise<Started>((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill()
      fail(new Error(`${options.what} did not print "${options.ready}" within ${options.timeoutMs} ms. Its output:\n${tail()}`))
    }, options.timeoutMs)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString().replace(ANSI, '')
      if (output.includes(options.ready)) {
        clearTimeout(timer)
        ready({ child, output: () => output })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`${options.what} exited (${code}) before it was ready. Its output:\n${tail()}`))
    })
  })
}

/** Runs `node args` to completion; a non-zero exit fails with the output. */
export function run(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; what: string }): Promise<void> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
  return new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill()
      fail(new Error(`${options.what} did not finish within ${options.timeoutMs} ms. Its output:\n${output.slice(-4000)}`))
    }, options.timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (code === 0) done()
      else fail(new Error(`${options.what} exited ${code}. Its output:\n${output.slice(-4000)}`))
    })
  })
}

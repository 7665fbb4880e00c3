/**
 * Commands the adoption test runs in the scratch app, as a user would in a terminal: every run is
 * bounded, and a failure carries the command's output (ANSI stripped), so CI says what broke.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'

// oxlint-disable-next-line no-control-regex -- the escape that starts a terminal's colour codes
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

export interface Ran {
  code: number | null
  output: string
}

/** The environment of a terminal: no Vitest variables, no colours. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([k]) => !/^(NODE_ENV|VITEST|VITE_|TEST|FORCE_COLOR|npm_)/.test(k))
  return { ...Object.fromEntries(kept), NO_COLOR: '1', ...extra }
}

export function exec(command: string, args: string[], options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms. Its output:\n${output.slice(-4000)}`))
    }, options.timeoutMs)
    child.once('exit', (code) => {
      clearTimeout(timer)
      done({ code, output: output.replace(ANSI, '') })
    })
  })
}

/** Starts a long-running command; resolves once its output contains `ready`. */
export function start(command: string, args: string[], options: { cwd: string; ready: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`${command} ${args.join(' ')} did not print "${options.ready}" within ${options.timeoutMs} ms. Its output:\n${output.slice(-4000)}`))
    }, options.timeoutMs)
    const onData = (d: Buffer) => {
      output += d.toString().replace(ANSI, '')
      if (output.includes(options.ready)) {
        clearTimeout(timer)
        ready(child)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready. Its output:\n${output.slice(-4000)}`))
    })
  })
}

export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const { port } = probe.address() as AddressInfo
  await new Promise((r) => probe.close(r))
  return port
}

/** Stops a started command and waits for it to be gone. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const gone = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}

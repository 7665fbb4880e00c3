/**
 * What the `mcp-bridge` bin runs: the CLI in a child process, watched. `check` and `generate`
 * execute the project's tool modules, and a module can do what no in-process timer can stop —
 * loop forever (`for (;;) {}`), leave an interval running, or call `process.exit(0)` itself.
 * The child reports each module it is about to run and its result; the supervisor:
 *
 *   - kills it when `--timeout` (default 300 s) passes, naming the module it was running;
 *   - fails (exit 1) when it ends without a result, e.g. a module exited the process;
 *   - exits with the child's code once the result is in, whatever the child left running.
 */
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseTimeout } from './cli-timeout.ts'

type ChildMessage = { loading: string } | { done: number }

const DEFAULT_TIMEOUT_S = 300

export async function superviseCli(argv: readonly string[], childScript = fileURLToPath(new URL('./cli-child.js', import.meta.url))): Promise<number> {
  const seconds = timeoutOf(argv) ?? DEFAULT_TIMEOUT_S
  const child = fork(childScript, [...argv], { stdio: 'inherit' })
  let loading: string | undefined
  let result: number | undefined
  child.on('message', (message: ChildMessage) => {
    if ('loading' in message) loading = message.loading
    else if ('done' in message) result = message.done
  })
  const timer = setTimeout(() => {
    const where = loading ? ` while running ${loading} (does its top-level code loop forever?)` : ''
    console.error(`mcp-bridge: stopped after ${seconds} s (--timeout)${where}.`)
    child.kill('SIGKILL')
  }, seconds * 1000)
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  clearTimeout(timer)
  if (result !== undefined) return result
  if (exit.signal === 'SIGKILL') return 1
  const where = loading ? ` while running ${loading}` : ''
  console.error(`mcp-bridge: the run ended without a result${where} (exit code ${exit.code ?? exit.signal}); does a tool module call process.exit()?`)
  return 1
}

/** `--timeout N` / `--timeout=N` from the arguments (the child validates and reports bad values). */
function timeoutOf(argv: readonly string[]): number | undefined {
  const at = argv.findIndex((a) => a === '--timeout' || a.startsWith('--timeout='))
  if (at === -1) return undefined
  const value = argv[at]!.includes('=') ? argv[at]!.split('=')[1]! : argv[at + 1]
  return value === undefined ? undefined : parseTimeout(value)
}

/**
 * Run a version of the official MCP conformance suite (`@modelcontextprotocol/conformance`) against
 * a server URL and read back what it checked: each scenario's checks, by scenario name. The suite
 * needs Node 22 or later (`node22()`), and runs asynchronously, since the server it calls may be
 * in this process.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { node22 } from './node22.ts'

export interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

export interface SuiteRun {
  /** The checks of each scenario the suite ran. */
  results: Map<string, Check[]>
  /** What it printed (for a failure's message). */
  printed: string
}

/** `suite`: the package's `dist/index.js`; `args`: what selects the scenarios (e.g. `['--suite', 'all']`). */
export async function runSuite(suite: string, url: string, args: readonly string[] = []): Promise<SuiteRun> {
  const out = mkdtempSync(join(tmpdir(), 'mcp-bridge-conformance-'))
  try {
    const run = await new Promise<{ error: Error | null; stdout: string; stderr: string }>((done) =>
      execFile(node22(), [suite, 'server', '--url', url, '--output-dir', out, ...args], { timeout: 240_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
        done({ error, stdout, stderr }),
      ),
    )
    const printed = `${run.stdout}\n${run.stderr}`
    // It exits 1 when a scenario fails: the checks say which; only a run that wrote none is an error.
    if (run.error && readdirSync(out).length === 0) throw new Error(`the conformance suite did not run: ${run.error.message}\n${printed}`)
    const results = new Map<string, Check[]>()
    for (const dir of readdirSync(out)) {
      const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1]
      if (scenario) results.set(scenario, JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[])
    }
    return { results, printed }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** A scenario's failed checks, as `id: why`. */
export const failures = (checks: readonly Check[]): string[] => checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`)

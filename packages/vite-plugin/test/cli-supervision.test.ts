/**
 * The `mcp-bridge` bin runs the project's tool modules, and must never hang or lie in CI: a
 * module that loops forever at import is stopped at `--timeout` and named; one that leaves an
 * interval running does not keep the process alive; one that calls `process.exit(0)` does not
 * turn into a silent pass; a mistyped or wrong `--root` is a usage error that creates nothing.
 * Each case is a temporary copy of a fixture with one hostile module added.
 */
import { execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bin, fixtureCopies, fixturesDir } from './support/fixtures.ts'

const copies = fixtureCopies()
afterAll(copies.removeAll)

/** valid-basic plus one tool module whose top level does `body`. */
function projectWith(body: string): string {
  const dir = copies.copy('valid-basic', 'hostile')
  writeFileSync(
    join(dir, 'src/tools/hostile.ts'),
    `import { createMcpTool } from '@mcp-bridge/runtime'\nexport const hostile = createMcpTool('hostile').elicits({}).execute(function* () { return 1 })\n${body}\n`,
  )
  return dir
}

function run(args: string[], timeoutMs = 90_000): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now()
  return new Promise((done) => {
    execFile(process.execPath, [bin, ...args], { timeout: timeoutMs }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr, ms: Date.now() - started })
    })
  })
}

describe('mcp-bridge bin under hostile tool modules', () => {
  it('stops a module that loops forever at import, after --timeout, naming it (exit 1)', async () => {
    const root = projectWith('for (;;) {}')
    const result = await run(['check', '--root', root, '--timeout', '8'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/mcp-bridge: stopped after 8 s \(--timeout\) while running .*src\/tools\/hostile\.ts \(does its top-level code loop forever\?\)/)
  }, 120_000)

  it('exits once the result is printed, even with an interval left running by a module', async () => {
    const root = projectWith('setInterval(() => {}, 1_000)')
    const result = await run(['generate', '--root', root], 60_000)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/mcp-bridge generate: 3 tools, 0 errors/)
  }, 120_000)

  it('fails (exit 1) when a module exits the process itself, instead of passing silently', async () => {
    const root = projectWith('process.exit(0)')
    const result = await run(['check', '--root', root])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/the run ended without a result while running .*hostile\.ts .*does a tool module call process\.exit\(\)\?/)
  }, 120_000)

  it('treats a missing or non-directory --root as a usage error (exit 2) and creates nothing', async () => {
    const missing = join(fixturesDir, '.tmp-no-such-root')
    const typo = await run(['check', '--root', missing])
    expect([typo.code, typo.stderr.trim()]).toEqual([2, `mcp-bridge: --root ${missing}: no such directory`])
    expect(existsSync(missing)).toBe(false)
    const file = await run(['check', '--root', bin])
    expect([file.code, file.stderr.trim()]).toEqual([2, `mcp-bridge: --root ${bin}: is a file, not a directory`])
    const timeout = await run(['check', '--timeout', 'soon'])
    expect(timeout.code).toBe(2)
    expect(timeout.stderr).toMatch(/--timeout takes a whole number of seconds/)
  }, 120_000)
})

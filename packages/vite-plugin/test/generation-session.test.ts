/**
 * The generation session without Vite: one run at a time with changes coalesced, catch-up
 * against the listing the first run used (a file written while the watcher was starting is never
 * lost), incremental runs after it, and `settle()` making the outputs current with the files as
 * they are, whatever a watcher reported.
 */
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GenerationSession } from '../src/core/generation-session.ts'
import type { GenerateResult } from '../src/core/generator.ts'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

/** A folder of files, a session over it whose "generation" records what it was asked and read. */
function project(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-session-'))
  dirs.push(dir)
  const write = (name: string, text: string, secondsAgo = 0) => {
    writeFileSync(join(dir, name), text)
    // Old enough that the mtime slack does not count it as recent (a real edit is, and is looked at again).
    const when = new Date(Date.now() - secondsAgo * 1000)
    utimesSync(join(dir, name), when, when)
  }
  for (const [name, text] of Object.entries(files)) write(name, text, 60)
  const runs: Array<{ files: string[] | undefined; changed: string[] | undefined; incremental: boolean }> = []
  let gate: Promise<void> = Promise.resolve()
  const listed = () =>
    import('node:fs').then(({ readdirSync }) =>
      readdirSync(dir)
        .map((f) => join(dir, f))
        .sort(),
    )
  const session = new GenerationSession({
    list: listed,
    async generate({ files, changed, incremental }) {
      runs.push({ files: files?.map((f) => f.slice(dir.length + 1)), changed: changed?.map((f) => f.slice(dir.length + 1)).sort(), incremental })
      await gate
      return { diagnostics: [], files: [], manifest: '', toolCount: 0, inputs: [] } satisfies GenerateResult
    },
  })
  return { dir, write, session, runs, hold: (until: Promise<void>) => (gate = until), path: (name: string) => join(dir, name) }
}

describe('GenerationSession', () => {
  it('runs one generation at a time; changes reported meanwhile make one more run', async () => {
    const p = project({ 'a.ts': 'a', 'b.ts': 'b' })
    let release!: () => void
    p.hold(new Promise((r) => (release = r)))
    const first = p.session.run()
    await new Promise((r) => setTimeout(r, 10))
    void p.session.run([p.path('a.ts')])
    void p.session.run([p.path('b.ts')])
    void p.session.run([p.path('a.ts')])
    release()
    await first
    await p.session.idle
    expect(p.runs).toEqual([
      { files: ['a.ts', 'b.ts'], changed: undefined, incremental: false },
      { files: ['a.ts', 'b.ts'], changed: ['a.ts', 'b.ts'], incremental: false },
    ])
    expect(p.session.runs).toBe(2)
  })

  it('catches up with what changed since the first listing: added, removed and edited files', async () => {
    const p = project({ 'kept.ts': 'k', 'edited.ts': 'e', 'gone.ts': 'g' })
    await p.session.run()
    // Written while the watcher was still starting: no event ever comes for these.
    p.write('added.ts', 'new')
    p.write('edited.ts', 'changed')
    unlinkSync(p.path('gone.ts'))
    await p.session.catchUp()
    expect(p.runs[1]).toEqual({ files: ['added.ts', 'edited.ts', 'kept.ts'], changed: ['added.ts', 'edited.ts', 'gone.ts'], incremental: false })
    expect(p.session.caughtUp).toBe(true)
    await p.session.run([p.path('kept.ts')])
    expect(p.runs[2]).toEqual({ files: undefined, changed: ['kept.ts'], incremental: true })
  })

  it('catches up with nothing when nothing changed', async () => {
    const p = project({ 'a.ts': 'a' })
    await p.session.run()
    await p.session.catchUp()
    expect(p.runs).toHaveLength(1)
  })

  it('settle() regenerates for an edit no watcher reported, and then stops', async () => {
    const p = project({ 'a.ts': 'a' })
    await p.session.run()
    await p.session.catchUp()
    p.write('a.ts', 'edited', 1) // an edit the watcher has not reported (yet)
    p.write('b.ts', 'new', 1)
    await p.session.settle()
    expect(p.runs.slice(1)).toEqual([{ files: undefined, changed: ['a.ts', 'b.ts'], incremental: true }])
    await p.session.settle()
    expect(p.runs).toHaveLength(2) // nothing new: no run
  })
})

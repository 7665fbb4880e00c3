/**
 * Releasing with changesets, rehearsed on a copy: `changeset version` over the workspace's own
 * manifests and pending changesets. The two packages move together to one version, a 0.x minor is
 * not turned into a 1.0 by the plugin's peer on the runtime (a changesets rule that bites fixed
 * groups with peers), the playground keeps installing the new versions, and every pending
 * change lands in the changelog that ships in the tarball.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { exec } from './commands.ts'

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const scratch = mkdtempSync(join(tmpdir(), 'mcp-bridge-release-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

type Manifest = { name: string; version: string; private?: boolean; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> }
const manifest = (dir: string, path: string) => JSON.parse(readFileSync(join(dir, path, 'package.json'), 'utf8')) as Manifest
const bump = (version: string) => {
  const [major, minor] = version.split('.').map(Number)
  return major === 0 ? `0.${minor! + 1}.0` : `${major! + 1}.0.0`
}

describe('a release, rehearsed with changesets on a copy of the workspace', () => {
  const pending = readdirSync(join(repo, '.changeset')).filter((f) => f.endsWith('.md'))

  it('there are pending changesets, each naming only the released packages', () => {
    expect(pending.length).toBeGreaterThan(0)
    for (const file of pending) {
      const front = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(repo, '.changeset', file), 'utf8'))?.[1]
      expect(front, file).toBeDefined()
      for (const line of front!.split('\n')) expect(line, file).toMatch(/^"@mcp-bridge\/(runtime|vite-plugin)": (major|minor|patch)$/)
    }
  })

  it('changeset version: one version for both, a minor at 0.x, the playground kept in step, every change in the changelogs', async () => {
    for (const dir of ['packages/runtime', 'packages/vite-plugin', 'playground']) {
      mkdirSync(join(scratch, dir), { recursive: true })
      cpSync(join(repo, dir, 'package.json'), join(scratch, dir, 'package.json'))
    }
    cpSync(join(repo, 'package.json'), join(scratch, 'package.json'))
    cpSync(join(repo, '.changeset'), join(scratch, '.changeset'), { recursive: true })
    const before = { runtime: manifest(repo, 'packages/runtime'), plugin: manifest(repo, 'packages/vite-plugin'), playground: manifest(repo, 'playground') }
    expect(before.plugin.version).toBe(before.runtime.version)

    const version = await exec(process.execPath, [join(repo, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: scratch, timeoutMs: 120_000 })
    expect(version.code, version.output).toBe(0)
    expect(version.output).not.toMatch(/must depend on the current version/)

    const next = bump(before.runtime.version)
    const runtime = manifest(scratch, 'packages/runtime')
    const plugin = manifest(scratch, 'packages/vite-plugin')
    const playground = manifest(scratch, 'playground')
    expect([runtime.version, plugin.version]).toEqual([next, next])
    expect(plugin.peerDependencies!['@mcp-bridge/runtime']).toBe('0.x')
    expect(plugin.devDependencies!['@mcp-bridge/runtime']).toBe(next)
    expect(playground.version).toBe(before.playground.version)
    expect(playground.dependencies!['@mcp-bridge/runtime']).toBe(next)
    expect(playground.dependencies!['@mcp-bridge/vite-plugin']).toBe(`^${next}`)

    // Every pending change is in the changelog of each package it names, and the files are used up.
    const changelog = { '@mcp-bridge/runtime': readFileSync(join(scratch, 'packages/runtime/CHANGELOG.md'), 'utf8'), '@mcp-bridge/vite-plugin': readFileSync(join(scratch, 'packages/vite-plugin/CHANGELOG.md'), 'utf8') }
    expect(changelog['@mcp-bridge/runtime']).toMatch(new RegExp(`^# @mcp-bridge/runtime\\n\\n## ${next.replace(/\./g, '\\.')}\\n`))
    for (const file of pending) {
      const text = readFileSync(join(repo, '.changeset', file), 'utf8')
      const [, front, body] = /^---\n([\s\S]*?)\n---\n+([\s\S]*)$/.exec(text)!
      const firstLine = body!.split('\n')[0]!
      for (const name of front!.split('\n').map((l) => l.split('"')[1] as keyof typeof changelog)) expect(changelog[name], `${file} in ${name}`).toContain(firstLine)
      expect(existsSync(join(scratch, '.changeset', file)), file).toBe(false)
    }
  }, 180_000)
})

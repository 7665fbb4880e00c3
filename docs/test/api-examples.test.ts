/**
 * The API reference as a reader gets it: every public export of both packages documented, every
 * function with an `@example`, and every example type-checked — as a module of an app that
 * imports the built packages (not their sources), beside the small app in `api-examples/` that the
 * examples import (`./tools.ts`, `./mcp-bridge/server.gen.ts`, …). An example that drifts from the
 * API fails here, naming the file it is written in.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { exec } from '../../adoption/test/commands.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const packages = ['runtime', 'vite-plugin'] as const
// Inside the workspace, so `@mcp-bridge/*` and the other packages resolve from its node_modules.
const scratch = join(root, 'node_modules/.cache/api-examples')
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface Example {
  /** Where it is written: `packages/runtime/src/…:line`. */
  at: string
  lang: 'ts' | 'tsx'
  code: string
}

/** The fenced code after each `@example` tag in a file's TSDoc comments. */
function examplesIn(file: string): Example[] {
  const source = readFileSync(file, 'utf8')
  const found: Example[] = []
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment[0].split('\n').map((l) => l.replace(/^\s*\*( |$)/, ''))
    const text = lines.join('\n')
    for (const example of text.matchAll(/@example\s*\n```(tsx?)\n([\s\S]*?)\n```/g)) {
      const line = source.slice(0, comment.index! + comment[0].indexOf('@example')).split('\n').length
      found.push({ at: `${relative(root, file)}:${line}`, lang: example[1] as 'ts' | 'tsx', code: example[2]! })
    }
  }
  return found
}

const sourceFiles = packages.flatMap((pkg) =>
  (readdirSync(join(root, 'packages', pkg, 'src'), { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f)).map((f) => join(root, 'packages', pkg, 'src', f)),
)
const examples = sourceFiles.flatMap(examplesIn)

describe('the API reference', () => {
  it('every @example type-checks against the built packages', async () => {
    expect(examples.length).toBeGreaterThan(80)
    rmSync(scratch, { recursive: true, force: true })
    mkdirSync(scratch, { recursive: true })
    cpSync(join(root, 'docs/test/api-examples'), scratch, { recursive: true })
    const names = new Map<string, string>()
    examples.forEach((example, i) => {
      const name = `example-${String(i).padStart(3, '0')}.${example.lang}`
      names.set(name, example.at)
      // Each example is a module of its own (its top-level names do not meet another's).
      writeFileSync(join(scratch, name), `${example.code}\nexport {}\n`)
    })
    const base = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { compilerOptions: Record<string, unknown> }
    // As an app: the packages' built declarations (no source condition), every example strict.
    const { customConditions: _source, ...compilerOptions } = base.compilerOptions
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, noUnusedLocals: false }, include: ['**/*.ts', '**/*.tsx'] }, null, 2))
    const tsc = await exec(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(scratch, 'tsconfig.json')], { cwd: scratch, timeoutMs: 240_000 })
    // Name each failing example by where it is written.
    const output = tsc.output.replace(/example-\d{3}\.tsx?/g, (name) => `${name} (${names.get(name)})`)
    expect(output).toBe('')
    expect(tsc.code).toBe(0)
  }, 300_000)
})

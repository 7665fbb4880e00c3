/**
 * What the generation is compared with. Both find `createMcpTool('name')` and `createPlugin(` in
 * every file of the tool folder with a regex and write one registry; no module runs, no schema is
 * checked — what it costs to know the names and write them down, and nothing more.
 *
 * - `sweatpantsGenerate`: sweatpants' method (the design's origin; its package is not on npm, so
 *   the method is re-done here, from its plugin's source): the folder listed asynchronously, each
 *   file read in turn with `await readFile`, the registry written — on every watcher event.
 * - `regexFloor`: the fastest way to do the same (synchronous reads): the floor.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { FSWatcher, Plugin } from 'vite'
import { watcherReady } from '../../../packages/vite-plugin/src/watcher-ready.ts'

export const REGEX_REGISTRY = 'src/regex-registry.gen.ts'

const isSource = (entry: string) => /\.tsx?$/.test(entry)

function registryLines(root: string, file: string, code: string): string[] {
  const spec = `./${relative(join(root, 'src'), file).replace(/\\/g, '/')}`
  const lines: string[] = []
  for (const m of code.matchAll(/export\s+const\s+(\w+)\s*=\s*createMcpTool\(\s*['"`]([^'"`]+)['"`]/g)) lines.push(`export { ${m[1]} as ${m[2]} } from '${spec}'`)
  for (const m of code.matchAll(/export\s+const\s+(\w+)\s*=\s*createPlugin\(/g)) lines.push(`export { ${m[1]} } from '${spec}'`)
  return lines
}

const render = (lines: string[]) => `${lines.sort().join('\n')}\n`
const tools = (lines: string[]) => lines.filter((l) => l.includes(' as ')).length

/** Synchronous list, read and write: the floor. Returns the tools found. */
export function regexFloor(root: string): number {
  const dir = join(root, 'src/tools')
  const lines = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(isSource)
    .flatMap((entry) => registryLines(root, join(dir, entry), readFileSync(join(dir, entry), 'utf8')))
  writeFileSync(join(root, REGEX_REGISTRY), render(lines))
  return tools(lines)
}

/** Sweatpants' method: an asynchronous listing, then each file read in turn. Returns the tools found. */
export async function sweatpantsGenerate(root: string): Promise<number> {
  const dir = join(root, 'src/tools')
  const lines: string[] = []
  for (const entry of (await readdir(dir, { recursive: true, encoding: 'utf8' })).filter(isSource)) {
    lines.push(...registryLines(root, join(dir, entry), await readFile(join(dir, entry), 'utf8')))
  }
  await writeFile(join(root, REGEX_REGISTRY), render(lines))
  return tools(lines)
}

/** A Vite plugin that regenerates the registry on every watcher event in the tool folder, as sweatpants' does. */
export function regexRegistryPlugin(how: 'sweatpants' | 'floor'): Plugin {
  let root = ''
  let watcher: FSWatcher | undefined
  const generate = () => (how === 'floor' ? Promise.resolve(regexFloor(root)) : sweatpantsGenerate(root))
  return {
    name: `bench-regex-registry-${how}`,
    /** After the dev server was created: resolves once its watcher's first scan is done. */
    api: { whenWatching: () => watcherReady(watcher!) },
    configResolved: (config) => void (root = config.root),
    async configureServer(server) {
      watcher = server.watcher
      await generate()
      const tools = join(root, 'src/tools')
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file: string) => void (file.startsWith(tools) && generate()))
    },
  }
}

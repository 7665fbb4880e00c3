/** The workspace packages as a user gets them: `npm pack` tarballs, by package name. */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { exec } from './commands.ts'

export async function packWorkspace(repo: string, into: string): Promise<Record<string, string>> {
  mkdirSync(into, { recursive: true })
  const tarballs: Record<string, string> = {}
  for (const pkg of ['runtime', 'vite-plugin']) {
    const packed = await exec('npm', ['pack', '--pack-destination', into], { cwd: join(repo, 'packages', pkg), timeoutMs: 60_000 })
    if (packed.code !== 0) throw new Error(`npm pack ${pkg} failed:\n${packed.output}`)
    const name = JSON.parse(readFileSync(join(repo, 'packages', pkg, 'package.json'), 'utf8')).name as string
    tarballs[name] = join(into, readdirSync(into).find((f) => f.startsWith(name.slice(1).replace('/', '-')))!)
  }
  return tarballs
}

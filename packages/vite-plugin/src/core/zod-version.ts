/**
 * The zod an app resolves, read from its root: a zod 3 there (installed past our peer range with
 * `--legacy-peer-deps`, or kept by an override) would fail later as type errors deep in the tool
 * types and as forms without labels; said at once instead, with how to upgrade.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

/** The version of the `zod` the app at `root` resolves; undefined when it resolves none. */
export function appZodVersion(root: string): string | undefined {
  try {
    const manifest = createRequire(join(root, 'package.json')).resolve('zod/package.json')
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version
  } catch {
    return undefined
  }
}

/** Whether `version` is older than zod 4. */
export function isBeforeZod4(version: string): boolean {
  return Number(version.split('.')[0]) < 4
}

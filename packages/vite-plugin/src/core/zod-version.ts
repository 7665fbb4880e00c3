/**
 * The zod an app resolves, read from its root. Tools are zod 4 schemas: `zod` 4.x, or `zod/v4`
 * of zod 3.25.76+ (what zod ships for libraries and apps moving over). An older zod (installed
 * past our peer range with `--legacy-peer-deps`, or kept by an override) would fail later as type
 * errors deep in the tool types and as forms without labels; said at once instead, with how to upgrade.
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

/** The oldest zod whose `zod/v4` the runtime reads schemas with. */
export const OLDEST_ZOD = '3.25.76'

/** Whether `version` is older than `OLDEST_ZOD` (so it has no usable `zod/v4`). */
export function isBeforeZod4(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split(/[.-]/).map(Number)
  if (major !== 3) return major < 3
  return minor < 25 || (minor === 25 && patch < 76)
}

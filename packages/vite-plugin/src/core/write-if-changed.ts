/**
 * Generated files are written only when what they say changes, and atomically (a temporary
 * file renamed into place), so watchers never see a half-written file and an unchanged
 * regeneration touches nothing — no rebuild loops, and a file the app's formatter reformatted
 * keeps its formatting (`same-meaning.ts`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { sameMeaning } from './same-meaning.ts'

/**
 * What this process last wrote to each path. A file still exactly as written needs no token
 * comparison (`sameMeaning` walks every character of both, ~8 ms per registry at 1,000 tools):
 * only a file someone reformatted since does.
 */
const written = new Map<string, string>()

export function writeIfChanged(path: string, content: string): boolean {
  const onDisk = readIfExists(path)
  if (onDisk !== undefined && (onDisk === content || (onDisk !== written.get(path) && sameMeaning(path, onDisk, content)))) return false
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`
  writeFileSync(temporary, content)
  renameSync(temporary, path)
  written.set(path, content)
  return true
}

export function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined
}

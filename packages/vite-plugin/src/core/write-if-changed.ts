/**
 * Generated files are written only when what they say changes, and atomically (a temporary
 * file renamed into place), so watchers never see a half-written file and an unchanged
 * regeneration touches nothing — no rebuild loops, and a file the app's formatter reformatted
 * keeps its formatting (`same-meaning.ts`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { sameMeaning } from './same-meaning.ts'

export function writeIfChanged(path: string, content: string): boolean {
  if (existsSync(path) && sameMeaning(path, readFileSync(path, 'utf8'), content)) return false
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`
  writeFileSync(temporary, content)
  renameSync(temporary, path)
  return true
}

export function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined
}

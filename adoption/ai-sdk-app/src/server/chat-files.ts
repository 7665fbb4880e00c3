/** Saved chats, one JSON file per chat id — the AI SDK docs' message persistence, kept small. */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { UIMessage } from 'ai'
import { dataDir } from './store.ts'

const file = (id: string) => {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(id)) throw new Error(`not a chat id: ${id}`)
  return join(dataDir, 'chats', `${id}.json`)
}

export async function loadChat(id: string): Promise<UIMessage[]> {
  try {
    return JSON.parse(await readFile(file(id), 'utf8')) as UIMessage[]
  } catch {
    return []
  }
}

export async function saveChat(id: string, messages: UIMessage[]): Promise<void> {
  await mkdir(join(dataDir, 'chats'), { recursive: true })
  await writeFile(file(id), JSON.stringify(messages))
}

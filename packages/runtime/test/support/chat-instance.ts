/**
 * One chat server of several sharing a SQLite file, in this process, on a test clock — and its
 * death as a killed process dies: its store connection goes first, so it neither renews its locks
 * nor writes again, and it says nothing (its turns fail on the closed store).
 */
import { vi } from 'vitest'
import { createChatHandler, createSqliteStore, type ChatHandlerOptions } from '../../src/server.ts'
import type { TestClock } from '../../src/testing.ts'
import { captureLogger } from './capture-logger.ts'

export async function chatInstance(db: string, clock: TestClock, options: Omit<ChatHandlerOptions, 'store' | 'clock' | 'logger'>, cleanups: Array<() => unknown>) {
  const store = await createSqliteStore({ path: db, clock })
  const logged = captureLogger()
  const handler = createChatHandler({ ...options, store, clock, logger: logged.logger })
  let dead = false
  const die = async () => {
    if (dead) return
    dead = true
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    await store.close()
    await handler.close()
    await clock.settle()
    quiet.mockRestore()
  }
  cleanups.push(die)
  return { handler, store, die, logged: logged.entries }
}

/** Waits on the event loop until `condition` holds, failing the test if it has not within `timeoutMs` (sized for a busy machine). */
import { expect, vi } from 'vitest'

export function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  return vi.waitFor(() => expect(condition()).toBe(true), { timeout: timeoutMs, interval: 10 })
}

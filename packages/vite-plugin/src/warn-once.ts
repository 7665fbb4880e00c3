/**
 * With `server`, `vite build` bundles the app twice — the client and the server environment —
 * and the bundler warns about a module both import once per environment: the same warning,
 * word for word, two or three times. For the length of a build, a warning already printed is not
 * printed again (nothing is lost: it names the same code, and the first says it).
 */
import type { Logger } from 'vite'

/** Make `logger` skip warnings in `printed` (one set for every environment's config of a build). */
export function warnOnce(logger: Logger, printed: Set<string>): void {
  const { warn } = logger
  if ((warn as { deduped?: true }).deduped) return
  logger.warn = (message, options) => {
    if (printed.has(message)) return
    printed.add(message)
    warn.call(logger, message, options)
  }
  ;(logger.warn as { deduped?: true }).deduped = true
}

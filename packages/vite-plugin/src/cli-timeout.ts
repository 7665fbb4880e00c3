/**
 * `--timeout`, read by both CLI processes. Its own module so the supervisor (`cli-supervisor.ts`)
 * imports nothing else of the CLI: it starts the child at once instead of loading Vite first.
 */

/** `--timeout` in seconds, or undefined when it is not a sensible number. */
export function parseTimeout(value: string): number | undefined {
  const seconds = Number(value)
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 86_400 ? seconds : undefined
}

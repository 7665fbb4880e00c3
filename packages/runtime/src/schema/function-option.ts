/**
 * A function-valued option, checked with `z.custom`: in zod 4.0–4.5 (and 3.25's `zod/v4`)
 * `z.function()` is a function factory rather than a schema (no `.optional()`), and the runtime
 * validates its options with the app's own zod, whichever of those it is.
 */
import { z } from 'zod/v4'

export function functionOption<F extends (...args: never[]) => unknown = (...args: never[]) => unknown>(what = 'a function'): z.ZodType<F> {
  return z.custom<F>((value) => typeof value === 'function', { message: `must be ${what}` })
}

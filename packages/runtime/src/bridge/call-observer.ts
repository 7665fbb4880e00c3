/**
 * What a call does, told as it does it — to tracing and metrics (`calls/call-trace.ts`). An
 * observer never changes what the call does; without one, nothing is told.
 */
export interface CallObserver {
  /** A step begins (or is replayed from the journal); the function returned is called when it ends, with its error if it failed. */
  step(info: { name: string; idempotencyKey?: string; replayed: boolean }): (error?: unknown) => void
  /** `ctx.sample` asks the model (or returns the recorded answer); the function returned is called when it answers. */
  sample(info: { replayed: boolean }): (error?: unknown) => void
}

/** Both observers told, in order (`b` may be absent). */
export function bothObservers(a: CallObserver, b: CallObserver | undefined): CallObserver {
  if (!b) return a
  return {
    step(info) {
      const ends = [a.step(info), b.step(info)]
      return (error) => ends.forEach((end) => end(error))
    },
    sample(info) {
      const ends = [a.sample(info), b.sample(info)]
      return (error) => ends.forEach((end) => end(error))
    },
  }
}

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

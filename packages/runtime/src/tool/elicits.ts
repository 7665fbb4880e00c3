/**
 * The types of a tool's elicitation surface, `.elicits({...})`. A key is declared either as a
 * zod object (the response schema) or as `{ response, context }` when the tool passes typed
 * data along for a rich UI. Everything else is derived from these two forms.
 */
import type { z } from 'zod/v4'

/** A response schema: a flat z.object (checked against the MCP rules at definition time). */
export type ElicitResponseSchema = z.ZodObject

/** A key with a typed context: the extra props of `ctx.elicit` are checked against `context`. */
export interface ElicitWithContext<R extends ElicitResponseSchema = ElicitResponseSchema, C extends z.ZodObject = z.ZodObject> {
  response: R
  context: C
}

/**
 * One entry of `.elicits({...})`: a zod object (the response), or `{ response, context }` for a key with typed context.
 */
export type ElicitDefinition = ElicitResponseSchema | ElicitWithContext

/**
 * What `.elicits({...})` takes: an `ElicitDefinition` per key.
 */
export type ElicitsMap = Record<string, ElicitDefinition>

/**
 * The keys a tool declares in `.elicits({...})`.
 */
export type ElicitKey<E extends ElicitsMap> = keyof E & string

/** The response zod schema of a definition. */
export type ResponseSchemaOf<D> = D extends ElicitWithContext<infer R, z.ZodObject> ? R : D extends ElicitResponseSchema ? D : never

/** What the tool receives for an accepted answer (zod output). */
export type ElicitContent<D> = z.output<ResponseSchemaOf<D>>

/** What a client sends for an accepted answer (zod input: defaults may be omitted). */
export type ElicitContentInput<D> = z.input<ResponseSchemaOf<D>>

/** Context data where the key declares a schema; otherwise any JSON-serialisable props. */
export type ElicitContextOf<D> = D extends ElicitWithContext<ElicitResponseSchema, infer C> ? z.output<C> : UntypedContext

/**
 * The context props `ctx.elicit(key, {...})` takes for a key: its context schema's input, or any values without one.
 */
export type ElicitContextInputOf<D> = D extends ElicitWithContext<ElicitResponseSchema, infer C> ? z.input<C> : UntypedContext

/**
 * The context of a key declared without a context schema: any named values.
 */
export type UntypedContext = { [key: string]: unknown }

/** The MCP-style answer to an elicitation. */
export type ElicitResult<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' }

/**
 * How a question was answered: `'accept'` (with content), `'decline'` or `'cancel'`.
 */
export type ElicitAction = ElicitResult<unknown>['action']

/** The options of `ctx.elicit(key, options)`: a message plus the context data as extra props. */
export type ElicitOptions<D> = {
  /** The human-readable question. */
  message: string
  /** Only form mode exists here; URL mode (MCP 2025-11-25) is not supported and throws. */
  mode?: 'form'
} & ElicitContextInputOf<D>

/**
 * How `ctx.elicit.withRetry(key, { message, ...options })` asks again: how many attempts, what a decline does, and the message of later attempts.
 */
export interface ElicitRetryOptions {
  /** How many times to ask in all (>= 1). */
  maxAttempts: number
  /**
   * On decline: `retry` asks again (throws `ElicitationDeclinedError` once attempts run out),
   * `error` throws at once, `return` hands the decline back. Cancel is never retried.
   */
  onDecline: 'retry' | 'error' | 'return'
  /** The message for attempts after the first (defaults to `message`). */
  retryMessage?: string
}

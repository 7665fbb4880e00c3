/**
 * x-model-context: the data a tool passes along with an elicitation (flight list,
 * seat map) travels in two places, so it survives clients that strip unknown schema keywords:
 *
 *   1. the schema extension `requestedSchema['x-model-context']` (primary, clean JSON);
 *   2. a section appended to the message after the boundary line
 *      `--x-model-context: application/json` (fallback; a basic client shows it as text).
 *
 * Readers try the schema first, then the message, and always get the human part of the
 * message back without the section.
 */
import { isPlainObject, type JsonSchema } from '../schema/json-schema.ts'
import { assertJsonSafe } from './json-safe.ts'
import { ModelContextError } from '../errors/definition-errors.ts'

/**
 * The key of the context in an elicitation's `requestedSchema`: `'x-model-context'`.
 */
export const MODEL_CONTEXT_KEY = 'x-model-context'
/**
 * What an MCP client declares (under `extensions`, or `experimental`) to say it reads the context
 * from the message's JSON section: `{ extensions: { 'io.mcp-bridge/model-context': {} } }`.
 */
export const MODEL_CONTEXT_EXTENSION = 'io.mcp-bridge/model-context'
export const MODEL_CONTEXT_MIME = 'application/json'
/**
 * The line that starts the context's JSON section at the end of a message: `--x-model-context: application/json`.
 */
export const MODEL_CONTEXT_BOUNDARY = `--${MODEL_CONTEXT_KEY}: ${MODEL_CONTEXT_MIME}`
const SEPARATOR = '\n\n'

/**
 * The data a tool passes beside a question (`ctx.elicit(key, { message, ...context })`): plain JSON values by name.
 */
export type ModelContext = Record<string, unknown>

export interface EncodeModelContextInput<S extends object> {
  message: string
  context: ModelContext
  schema: S
}

export interface EncodedModelContext<S extends object> {
  message: string
  schema: S & { 'x-model-context'?: ModelContext }
}

/**
 * Writes a question's context into its requested schema and (unless `section: false`) as a JSON section at the
 * end of its message. Throws `ModelContextError` naming a value JSON cannot carry.
 *
 * `section: false` keeps the context out of the message (the schema still carries it): for a
 * reader that is a person, a JSON section is noise. Default `true`.
 *
 * @example
 * ```ts
 * import { encodeModelContext } from '@mcp-bridge/runtime'
 *
 * const { message, schema } = encodeModelContext(
 *   { message: 'Pick a flight', context: { flights: [{ id: 'JS-501' }] }, schema: { type: 'object', properties: {} } },
 *   { section: false }, // a person reads this message: no JSON under it
 * )
 * // schema['x-model-context'] → { flights: [{ id: 'JS-501' }] }; message → 'Pick a flight'
 * ```
 */
export function encodeModelContext<S extends object>(input: EncodeModelContextInput<S>, options: { section?: boolean } = {}): EncodedModelContext<S> {
  const { message, context, schema } = input
  if (typeof message !== 'string') throw new ModelContextError('(message)', 'must be a string: the human-readable question')
  if (!isPlainObject(context)) throw new ModelContextError('', 'must be a plain object of named values')
  assertJsonSafe(context)
  const json = JSON.stringify(context)
  // With no context, nothing is added — unless the message itself contains the boundary text:
  // then we still append (an empty) section, so the last section is always ours.
  if (json === '{}' && !message.includes(MODEL_CONTEXT_BOUNDARY)) return { message, schema: { ...schema } }
  return {
    message: options.section === false ? message : `${message}${SEPARATOR}${MODEL_CONTEXT_BOUNDARY}\n${json}`,
    // Re-parse so the schema holds exactly what the message holds (no undefined props, no shared refs).
    schema: { ...schema, [MODEL_CONTEXT_KEY]: JSON.parse(json) as ModelContext },
  }
}

/**
 * What `extractModelContext` reads from a question: the message for people, the context, and where the context was found.
 */
export interface ExtractedModelContext {
  /** The human-readable message, without the encoded section. */
  message: string
  context: ModelContext
  source: 'schema' | 'message' | 'none'
}

/**
 * Read the context of an elicitation. Accepts a raw MCP request (`{ message, requestedSchema }`),
 * an `ElicitRequest` (`{ message, schema: { json } }`) or `{ message, schema }`.
 *
 * @example
 * ```ts
 * import { extractModelContext } from '@mcp-bridge/runtime'
 *
 * const { message, context, source } = extractModelContext({
 *   message: 'Pick a flight',
 *   requestedSchema: { type: 'object', properties: {}, 'x-model-context': { flights: [{ id: 'JS-501' }] } },
 * })
 * // message → 'Pick a flight', context → { flights: [...] }, source → 'schema'
 * ```
 */
export function extractModelContext(request: { message: string; schema?: JsonSchema | { json: JsonSchema }; requestedSchema?: JsonSchema }): ExtractedModelContext {
  const schema = schemaOf(request)
  const section = findSection(request.message)
  const fromSchema = schema?.[MODEL_CONTEXT_KEY]
  const human = section ? section.human : request.message
  if (isPlainObject(fromSchema)) return { message: human, context: fromSchema, source: 'schema' }
  if (section) return { message: human, context: section.context, source: 'message' }
  return { message: human, context: {}, source: 'none' }
}

function schemaOf(request: { schema?: unknown; requestedSchema?: unknown }): JsonSchema | undefined {
  const candidate = request.requestedSchema ?? request.schema
  if (!isPlainObject(candidate)) return undefined
  if (isPlainObject(candidate.json) && candidate.type === undefined) return candidate.json
  return candidate
}

/** The last boundary line whose remainder is a JSON object; earlier ones belong to the author. */
function findSection(message: string): { human: string; context: ModelContext } | undefined {
  const marker = `${MODEL_CONTEXT_BOUNDARY}\n`
  const at = message.lastIndexOf(marker)
  if (at === -1 || (at > 0 && message[at - 1] !== '\n')) return undefined
  const body = message.slice(at + marker.length)
  if (body.includes('\n')) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (!isPlainObject(parsed)) return undefined
  let human = message.slice(0, at)
  if (human.endsWith(SEPARATOR)) human = human.slice(0, -SEPARATOR.length)
  else if (human.endsWith('\n')) human = human.slice(0, -1)
  return { human, context: parsed }
}

/**
 * The slice of the AI SDK (`ai` 5 to 7) this adapter touches, written as the shapes it reads and
 * writes rather than imported: `ai` stays the app's dependency (7 needs Node 22), our published
 * types name nothing from it, and an app's own `UIMessage`, writer and step types fit these.
 */

/** A part of a `UIMessage` (text, a tool call, data, ...): only tool parts are read here. */
export interface UiPartLike {
  type: string
  toolCallId?: string
  state?: string
  input?: unknown
  output?: unknown
  errorText?: string
  preliminary?: boolean
}

/** A `UIMessage` as useChat sends it. */
export interface UiMessageLike {
  id: string
  role: 'system' | 'user' | 'assistant'
  parts: UiPartLike[]
  metadata?: unknown
}

/** The chunks of the UI message stream this adapter writes (`tool-output-available`, `error`). */
export type UiChunkLike =
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean }
  | { type: 'error'; errorText: string }

/** `createUIMessageStream`'s `writer`. */
export interface UiStreamWriterLike {
  write(chunk: UiChunkLike): void
}

/** A tool for `streamText({ tools })`: a function tool with a streamed `execute`. */
export interface AiSdkToolLike {
  description?: string
  title?: string
  /** An AI SDK `Schema` (the JSON Schema MCP clients see; the call checks the arguments itself). */
  inputSchema: AiSdkSchema
  execute(input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }): AsyncIterable<unknown>
  toModelOutput(options: { toolCallId: string; input: unknown; output: unknown }): { type: 'json'; value: JsonValueLike } | { type: 'text'; value: string }
}

/** The AI SDK's `jsonSchema(...)` value, made without importing it (its symbol is global). */
export interface AiSdkSchema {
  readonly [key: symbol]: true
  readonly _type: undefined
  readonly jsonSchema: Record<string, unknown>
  readonly validate: undefined
}

export type JsonValueLike = null | string | number | boolean | JsonValueLike[] | { [key: string]: JsonValueLike | undefined }

/** What a `stopWhen` condition is given: the steps so far, with their tool results. */
export interface StepsLike {
  steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ toolName: string; output?: unknown; preliminary?: boolean }> }>
}

const SCHEMA_SYMBOL = Symbol.for('vercel.ai.schema')

export function aiSdkJsonSchema(schema: Record<string, unknown>): AiSdkSchema {
  return { [SCHEMA_SYMBOL]: true, _type: undefined, jsonSchema: schema, validate: undefined }
}

/** `tool-<name>` parts are a ToolSet's tools; `dynamic-tool` parts name theirs. */
export function toolNameOf(part: UiPartLike & { toolName?: unknown }): string | undefined {
  if (part.type.startsWith('tool-')) return part.type.slice('tool-'.length)
  if (part.type === 'dynamic-tool' && typeof part.toolName === 'string') return part.toolName
  return undefined
}

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
export type UiChunkLike = { type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean } | { type: 'error'; errorText: string }

/** `createUIMessageStream`'s `writer`. */
export interface UiStreamWriterLike {
  write(chunk: UiChunkLike): void
}

/** A tool for `streamText({ tools })`: a function tool with a streamed `execute`. */
export interface AiSdkToolLike {
  description?: string
  title?: string
  /** A Standard Schema carrying the JSON Schema MCP clients see (the call checks the arguments itself). */
  inputSchema: AiSdkInputSchema
  execute(input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }): AsyncIterable<unknown>
  toModelOutput(options: { toolCallId: string; input: unknown; output: unknown }): { type: 'json'; value: JsonValueLike } | { type: 'text'; value: string }
}

/**
 * A Standard Schema (with its JSON Schema converter) over the tool's JSON Schema: the AI SDK takes
 * any such schema, and the model sees exactly what MCP clients see. It lets every value through:
 * the call validates its arguments with the tool's zod schema and tells the model what was wrong.
 */
export interface AiSdkInputSchema {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: 'mcp-bridge'
    readonly validate: (value: unknown) => { value: unknown }
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
}

export type JsonValueLike = null | string | number | boolean | JsonValueLike[] | { [key: string]: JsonValueLike | undefined }

/** What a `stopWhen` condition is given: the steps so far, with their tool results. */
export interface StepsLike {
  steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ toolName: string; output?: unknown; preliminary?: boolean }> }>
}

export function aiSdkInputSchema(schema: Record<string, unknown>): AiSdkInputSchema {
  const jsonSchema = () => structuredClone(schema)
  return { '~standard': { version: 1, vendor: 'mcp-bridge', validate: (value) => ({ value }), jsonSchema: { input: jsonSchema, output: jsonSchema } } }
}

/** `tool-<name>` parts are a ToolSet's tools; `dynamic-tool` parts name theirs. */
export function toolNameOf(part: UiPartLike & { toolName?: unknown }): string | undefined {
  if (part.type.startsWith('tool-')) return part.type.slice('tool-'.length)
  if (part.type === 'dynamic-tool' && typeof part.toolName === 'string') return part.toolName
  return undefined
}

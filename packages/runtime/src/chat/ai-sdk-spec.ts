/**
 * The part of the AI SDK's language-model specification `createAiSdkModel` uses, written out here
 * instead of imported from `@ai-sdk/provider`: versions 3 and 4 agree on all of it (v4 adds
 * fields this adapter does not read), so any provider model of either version fits — and
 * mcp-bridge needs no AI SDK package at all (v4 packages require Node ≥ 22; v3 ones run on 20).
 *
 * Structural and minimal on purpose: a provider's own `LanguageModelV3` / `LanguageModelV4` is
 * assignable to `AiSdkLanguageModel`.
 */

export type AiSdkTextPart = { type: 'text'; text: string }
/** Base64 file data: a plain string in v3, wrapped as `{ type: 'data', data }` in v4. */
export type AiSdkFilePart = { type: 'file'; data: string | { type: 'data'; data: string }; mediaType: string }
export type AiSdkToolCallPart = { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
export type AiSdkToolResultPart = {
  type: 'tool-result'
  toolCallId: string
  toolName: string
  output: { type: 'text'; value: string } | { type: 'error-text'; value: string }
}

export type AiSdkMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<AiSdkTextPart | AiSdkFilePart> }
  | { role: 'assistant'; content: Array<AiSdkTextPart | AiSdkToolCallPart> }
  | { role: 'tool'; content: AiSdkToolResultPart[] }

export interface AiSdkFunctionTool {
  type: 'function'
  name: string
  description?: string
  inputSchema: Record<string, unknown>
}

export interface AiSdkCallOptions {
  prompt: AiSdkMessage[]
  maxOutputTokens?: number
  temperature?: number
  stopSequences?: string[]
  tools?: AiSdkFunctionTool[]
  toolChoice?: { type: 'auto' | 'none' | 'required' }
  abortSignal?: AbortSignal
}

/** The stream parts this adapter reads; every other part (`type` of its own) is skipped. */
export type AiSdkStreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'finish'; finishReason: { unified: string } }
  | { type: 'error'; error: unknown }
  | { type: string }

export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v3' | 'v4'
  readonly provider: string
  readonly modelId: string
  /**
   * Typed `never` on the way in so a provider's own (richer, version-specific) option type is
   * accepted; `createAiSdkModel` builds `AiSdkCallOptions` for the model's version and calls it with them.
   */
  doStream(options: never): PromiseLike<{ stream: ReadableStream<AiSdkStreamPart> }>
}

/** How `createAiSdkModel` calls a model: with options built for its specification version. */
export type AiSdkStream = (options: AiSdkCallOptions) => PromiseLike<{ stream: ReadableStream<AiSdkStreamPart> }>

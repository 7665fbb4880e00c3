/**
 * Packages some examples import that the workspace does not install, typed as far as the examples
 * use them, so an example that misuses our API against them still fails: `express` (a Connect-style
 * `use`) and the AI SDK (`ai`, `@ai-sdk/react`). The AI SDK examples also run, against the real AI
 * SDK's types, in the AI SDK adoption app.
 */
declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  interface App {
    use(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): App
    listen(port: number, host: string): unknown
  }
  export default function express(): App
}
declare module 'ai' {
  export type UIMessagePart = { type: 'text'; text: string } | { type: `tool-${string}`; toolCallId: string; state: string; input?: unknown; output?: unknown }
  export interface UIMessage {
    id: string
    role: 'system' | 'user' | 'assistant'
    parts: UIMessagePart[]
  }
  export interface UIMessageStreamWriter {
    write(chunk: { type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean } | { type: 'error'; errorText: string }): void
    merge(stream: ReadableStream<unknown>): void
  }
  export function createUIMessageStream(options: { originalMessages?: UIMessage[]; execute(options: { writer: UIMessageStreamWriter }): Promise<void> | void }): ReadableStream<unknown>
  export function createUIMessageStreamResponse(options: { stream: ReadableStream<unknown> }): Response
  export function convertToModelMessages(messages: readonly UIMessage[]): Promise<unknown[]>
  export function stepCountIs(count: number): (options: { steps: readonly unknown[] }) => boolean
  export function streamText(options: { model: unknown; messages: unknown[]; tools?: unknown; stopWhen?: unknown }): { toUIMessageStream(): ReadableStream<unknown> }
}
declare module '@ai-sdk/react' {
  import type { UIMessage } from 'ai'
  export function useChat(): {
    messages: UIMessage[]
    status: 'submitted' | 'streaming' | 'ready' | 'error'
    error: Error | undefined
    addToolOutput(options: { tool: string; toolCallId: string; output: unknown }): Promise<void>
    sendMessage(): Promise<void>
  }
}

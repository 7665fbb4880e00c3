/**
 * `useMcpBridge(chat, { plugins })`: the browser half of the AI SDK bridge, over `useChat`'s result.
 * It owns one plugin executor and emission store for the chat (closed when the component goes
 * away) and answers a question the AI SDK's way: the part's output becomes `answered` through
 * `addToolOutput`, the messages go again with `sendMessage()`, and the server's verdict — the
 * next question, a refusal with its errors, or the result — arrives as the part's new output.
 */
import { useEffect, useRef, useState } from 'react'
import { createEmissionStore, type EmissionStore } from '../client/emission-store.ts'
import { createPluginExecutor, type IncomingQuestion, type PluginExecutor, type SendOutcome } from '../client/plugin-executor.ts'
import { createPluginRegistry } from '../client/plugin-registry.ts'
import type { PluginClientRegistration } from '../plugin/types.ts'
import { toolNameOf, type UiMessageLike, type UiPartLike } from '../protocol/ai-sdk-shapes.ts'
import { readToolOutput, type InputRequiredOutput, type McpBridgeToolOutput } from '../protocol/ai-sdk-output.ts'
import { STOPPED_BY_USER } from '../protocol/chat-wire.ts'
import type { ElicitResult } from '../tool/elicits.ts'

/**
 * What `useChat()` returns, as far as this hook reads it. `addToolOutput` is typed by the app's
 * message type there; any useChat result fits (its output parameter is the app's, hence `never` here).
 */
export interface AiSdkChatLike {
  readonly messages: readonly UiMessageLike[]
  readonly status: 'submitted' | 'streaming' | 'ready' | 'error'
  readonly error?: Error | undefined
  addToolOutput(options: { tool: never; toolCallId: string; output: never }): void | PromiseLike<void>
  sendMessage(): Promise<void>
}

/**
 * What `useMcpBridge` takes: the generated `clientPlugins`.
 */
export interface UseMcpBridgeOptions {
  /** The generated `clientPlugins`: each tool's `onElicit` handlers. A tool without one gets the generated form. */
  plugins: readonly PluginClientRegistration[]
}

/** A tool part of an mcp-bridge tool, with its output read. */
export interface McpBridgePart {
  toolName: string
  toolCallId: string
  /** Undefined while the model streams the call's input or the tool starts. */
  output: McpBridgeToolOutput | undefined
}

/**
 * What `useMcpBridge` gives: read a part as an mcp-bridge call, answer or cancel it, and whether a question waits.
 */
export interface McpBridgeChat {
  /** The part as an mcp-bridge call (its tool is one of `plugins`' or its output is ours), else undefined. */
  read(part: UiPartLike): McpBridgePart | undefined
  /** True while a question waits for the person: the app can hold its composer (the server refuses a new message then). */
  readonly waiting: boolean
  readonly store: EmissionStore
  /** Send an answer to a question (the generated form's submit; handlers go through the executor). */
  answer(part: McpBridgePart, output: InputRequiredOutput, result: ElicitResult<unknown>): Promise<SendOutcome>
  /** Cancel the call: its tool stops (its `finally` runs) and the model hears it was cancelled. */
  cancel(part: McpBridgePart, reason?: string): Promise<void>
  /**
   * Show the question: its plugin's handler runs once per question (a refused answer runs it again
   * with the errors). `onFailed` hears why a handler failed; the generated form takes over then.
   */
  show(part: McpBridgePart, output: InputRequiredOutput, onFailed?: (message: string) => void): 'plugin' | 'form'
}

/** An answer or cancellation on its way; `sent` once its request returned (then a ready chat means it ended). */
type Waiter = { toolCallId: string; sent: boolean; resolve(output: McpBridgeToolOutput | Error): void }

/**
 * The browser half of the AI SDK bridge, over `useChat()`'s result.
 *
 * @example
 * ```tsx
 * import { useChat } from '@ai-sdk/react'
 * import { McpBridgeToolPart, useMcpBridge } from '@mcp-bridge/runtime/ai-sdk/react'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * export function Chat() {
 *   const chat = useChat()
 *   const bridge = useMcpBridge(chat, { plugins: clientPlugins })
 *   return chat.messages.map((message) =>
 *     message.parts.map((part, i) => {
 *       const call = bridge.read(part)
 *       return call ? <McpBridgeToolPart key={i} bridge={bridge} part={call} /> : part.type === 'text' ? <p key={i}>{part.text}</p> : null
 *     }),
 *   )
 * }
 * ```
 */
export function useMcpBridge(chat: AiSdkChatLike, options: UseMcpBridgeOptions): McpBridgeChat {
  const latest = useRef(chat)
  latest.current = chat
  const [state] = useState(() => createState(latest, options.plugins))
  // Handlers run while the component is mounted; React's StrictMode mounts it twice in dev.
  const [, reopened] = useState(0)
  useEffect(() => {
    // Reopened: render again, so each question on screen is shown to the new executor.
    if (state.open()) reopened((n) => n + 1)
    return () => state.close()
  }, [state])
  // Each render brings the parts' outputs: settle the answers waiting for the server's verdict.
  useEffect(() => state.observe())
  const waiting = chat.messages.some((m) => m.role === 'assistant' && m.parts.some((p) => readToolOutput(p.output)?.status === 'input-required'))
  return { ...state.api, waiting }
}

function createState(chat: { current: AiSdkChatLike }, plugins: readonly PluginClientRegistration[]) {
  const registry = createPluginRegistry(plugins)
  const store = createEmissionStore()
  const waiters = new Set<Waiter>()
  const shown = new Set<string>()
  /** Questions whose handler failed: the generated form asks them. */
  const failed = new Set<string>()
  /** The part each call is in (the executor's questions carry the call id). */
  const parts = new Map<string, McpBridgePart>()

  const outputOf = (toolCallId: string): McpBridgeToolOutput | undefined => {
    for (const message of chat.current.messages) {
      for (const part of message.parts) if (part.toolCallId === toolCallId) return readToolOutput(part.output)
    }
    return undefined
  }

  function check(): void {
    const current = chat.current
    for (const waiter of [...waiters]) {
      const output = outputOf(waiter.toolCallId)
      const pending = output?.status === 'answered' || output?.status === 'cancel-requested'
      if (!pending) {
        waiters.delete(waiter)
        waiter.resolve(output ?? new Error('the tool call is gone from the chat'))
      } else if (waiter.sent && (current.status === 'error' || current.status === 'ready')) {
        // The request ended and the server never answered this part (it failed, or was stopped).
        waiters.delete(waiter)
        waiter.resolve(current.error ?? new Error('the request ended without an answer'))
      }
    }
  }

  /** Resolved by the first render at which no response is streaming (`observe`). */
  const idleWaiters = new Set<() => void>()
  const busy = () => chat.current.status === 'streaming' || chat.current.status === 'submitted'

  /**
   * Put the part's new output and send it. Not while a response streams (the one that asked, right
   * after it asked): useChat would run the two requests at once, and the streaming one, ending,
   * writes back the message it began with — the answer gone. The answer waits for it to end.
   */
  async function put(part: McpBridgePart, output: McpBridgeToolOutput): Promise<McpBridgeToolOutput | Error> {
    if (busy()) await new Promise<void>((resolve) => idleWaiters.add(resolve))
    const waiter: Waiter = { toolCallId: part.toolCallId, sent: false, resolve: () => {} }
    const settled = new Promise<McpBridgeToolOutput | Error>((resolve) => (waiter.resolve = resolve))
    waiters.add(waiter)
    await chat.current.addToolOutput({ tool: part.toolName as never, toolCallId: part.toolCallId, output: output as never })
    await chat.current.sendMessage()
    waiter.sent = true
    // The last render may already have shown the end; if not, the next one settles it.
    check()
    return settled
  }

  async function send(part: McpBridgePart, asked: InputRequiredOutput, result: ElicitResult<unknown>): Promise<SendOutcome> {
    const { refused: _refused, ...open } = asked
    const now = await put(part, { ...open, status: 'answered', answer: result } as McpBridgeToolOutput)
    if (now instanceof Error) {
      // Not delivered: the question is open again, as it was, for another try.
      await chat.current.addToolOutput({ tool: part.toolName as never, toolCallId: part.toolCallId, output: asked as never })
      return { ok: false, message: `The answer could not be sent: ${now.message}` }
    }
    if (now.status === 'input-required' && now.question.id === asked.question.id && now.refused) {
      return { ok: false, message: now.refused.message, ...(now.refused.issues && { issues: now.refused.issues }) }
    }
    return { ok: true }
  }

  const executorOf = () =>
    createPluginExecutor({
      registry,
      store,
      send: (question: IncomingQuestion, result) => {
        const part = parts.get(question.callId)
        const output = part && outputOf(part.toolCallId)
        if (!part || output?.status !== 'input-required') return Promise.resolve({ ok: false, message: 'This question is no longer open.' })
        return send(part, output, result)
      },
    })
  let executor: PluginExecutor = executorOf()
  let closed = false

  const api: Omit<McpBridgeChat, 'waiting'> = {
    read(part) {
      const name = toolNameOf(part)
      if (name === undefined || part.toolCallId === undefined) return undefined
      const output = readToolOutput(part.output)
      if (!output && !registry.has(name)) return undefined
      return { toolName: name, toolCallId: part.toolCallId, output }
    },
    store,
    answer: send,
    async cancel(part, reason) {
      const output = outputOf(part.toolCallId)
      if (!output || output.status === 'done') return
      await executor.cancel(output.callId, reason ?? STOPPED_BY_USER)
      const { mcpBridge, callId, token, answers } = output
      await put(part, { mcpBridge, callId, token, ...(answers && { answers }), status: 'cancel-requested', ...(reason !== undefined && { reason }) })
    },
    show(part, output, onFailed) {
      parts.set(output.callId, part)
      if (!registry.has(part.toolName) || failed.has(output.question.id)) return 'form'
      if (!shown.has(output.question.id)) {
        shown.add(output.question.id)
        const handled = executor.handle({ callId: output.callId, toolName: part.toolName, request: output.question })
        if (handled.status === 'no-plugin') return 'form'
        void handled.outcome.then((outcome) => {
          if (outcome.status !== 'failed') return
          failed.add(output.question.id)
          onFailed?.(outcome.error.message)
        })
      }
      return 'plugin'
    },
  }

  return {
    api,
    /** (Again) after a close: the questions on screen are handled anew. */
    open(): boolean {
      if (!closed) return false
      closed = false
      executor = executorOf()
      shown.clear()
      return true
    },
    close() {
      closed = true
      void executor.close()
    },
    observe() {
      if (!busy()) {
        for (const resume of idleWaiters) resume()
        idleWaiters.clear()
      }
      check()
      // A call that ended (answered in another tab, cancelled, expired) takes its UI with it.
      for (const [callId, part] of parts) {
        if (outputOf(part.toolCallId)?.status === 'done') {
          parts.delete(callId)
          void executor.cancel(callId, 'the call ended')
        }
      }
    },
  }
}

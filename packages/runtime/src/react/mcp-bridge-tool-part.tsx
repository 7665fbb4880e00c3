/**
 * `<McpBridgeToolPart bridge={bridge} part={part} />`: an mcp-bridge tool call in an AI SDK chat,
 * at its part's place in the message. Running: its progress. Asking: the tool's plugin UI (its
 * `onElicit` handler, exhaustively typed) or the generated form, with a refusal's errors in the
 * same component (what was typed stays). Then "Sending…", and at the end its answers and result.
 */
import { useEffect, useState, type ReactNode } from 'react'
import type { JsonSchema } from '../schema/json-schema.ts'
import { GeneratedForm } from './generated-form.tsx'
import { SendingAnswer, ToolCallEmissions } from './emission-view.tsx'
import type { IssueSummary } from '../errors/issues.ts'
import type { McpBridgeChat, McpBridgePart } from './use-mcp-bridge.ts'
import type { DoneOutput, InputRequiredOutput } from '../protocol/ai-sdk-output.ts'

/**
 * The props of `McpBridgeToolPart`: the bridge, the part, and how a finished call's result reads.
 */
export interface McpBridgeToolPartProps {
  bridge: McpBridgeChat
  part: McpBridgePart
  /** How a finished call's result reads (default: its text, or its fields as JSON). */
  renderResult?: (output: DoneOutput) => ReactNode
}

/**
 * One mcp-bridge call at its part's place: progress, the question (plugin UI or generated form),
 * then the answers and the result. See `useMcpBridge` for an example.
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
 *   return chat.messages.flatMap((message) =>
 *     message.parts.map((part, i) => {
 *       const call = bridge.read(part)
 *       return call ? <McpBridgeToolPart key={`${message.id}-${i}`} bridge={bridge} part={call} /> : null
 *     }),
 *   )
 * }
 * ```
 */
export function McpBridgeToolPart({ bridge, part, renderResult }: McpBridgeToolPartProps) {
  const { output } = part
  return (
    <div className="mcp-tool-part" data-tool={part.toolName} data-status={output?.status ?? 'starting'}>
      {output?.logs && output.logs.length > 0 && (
        <ul className="mcp-tool-log" aria-label={`${part.toolName} log`}>
          {output.logs.map((line, i) => (
            <li key={i} data-level={line.level}>
              {line.message}
            </li>
          ))}
        </ul>
      )}
      {output?.progress && (
        <p className="mcp-progress" role="status">
          {output.progress.message}
        </p>
      )}
      {output === undefined || output.status === 'running' ? (
        !output?.progress && <p className="mcp-progress">Running {part.toolName}…</p>
      ) : output.status === 'input-required' ? (
        <Question key={output.question.id} bridge={bridge} part={part} output={output} />
      ) : output.status === 'done' ? (
        <Result output={output} {...(renderResult && { renderResult })} />
      ) : (
        <SendingAnswer />
      )}
    </div>
  )
}

function Question({ bridge, part, output }: { bridge: McpBridgeChat; part: McpBridgePart; output: InputRequiredOutput }) {
  // Which UI asks is known at once; the handler starts after render (it updates the emission store).
  const [mode, setMode] = useState<'plugin' | 'form' | undefined>(undefined)
  const [failure, setFailure] = useState<string>()
  useEffect(
    () =>
      setMode(
        bridge.show(part, output, (message) => {
          setFailure(message)
          setMode('form')
        }),
      ),
    [bridge, part, output],
  )
  const [sending, setSending] = useState(false)
  const errors: IssueSummary[] | undefined = output.refused && (output.refused.issues?.length ? output.refused.issues : [{ path: '', message: output.refused.message }])
  return (
    <>
      {failure && (
        <p className="mcp-plugin-failed" role="alert">
          This question's UI failed ({failure}). Answer it with the form below, or cancel.
        </p>
      )}
      {mode === 'plugin' && <ToolCallEmissions store={bridge.store} callId={output.callId} />}
      {mode === 'form' && (
        <GeneratedForm
          message={output.question.message}
          schema={output.question.schema as JsonSchema}
          {...(errors && { errors })}
          disabled={sending}
          onSubmit={(result) => {
            setSending(true)
            void bridge.answer(part, output, result).finally(() => setSending(false))
          }}
        />
      )}
      {mode === 'form' && sending && <SendingAnswer />}
      <button type="button" className="mcp-cancel-call" onClick={() => void bridge.cancel(part)}>
        Cancel {part.toolName}
      </button>
    </>
  )
}

function Result({ output, renderResult }: { output: DoneOutput; renderResult?: (output: DoneOutput) => ReactNode }) {
  return (
    <>
      {output.answers && output.answers.length > 0 && (
        <ul className="mcp-answers">
          {output.answers.map((answer, i) => (
            <li key={i}>{answer}</li>
          ))}
        </ul>
      )}
      {renderResult ? (
        renderResult(output)
      ) : output.cancelled ? (
        // Someone stopped it: one neutral word, and what it had already done that stays done.
        <p className="mcp-tool-cancelled" role="status">
          Cancelled.{output.alreadyDone && ` ${output.alreadyDone}`}
        </p>
      ) : output.isError ? (
        <p className="mcp-tool-error" role="alert">
          {String(output.result)}
        </p>
      ) : (
        <pre className="mcp-tool-result">{typeof output.result === 'string' ? output.result : JSON.stringify(output.result, null, 2)}</pre>
      )}
    </>
  )
}

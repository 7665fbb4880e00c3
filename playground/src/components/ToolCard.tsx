import { useEffect, useRef } from 'react'
import { isToolContent } from '@mcp-bridge/runtime'
import { GeneratedForm, SendingAnswer, ToolCallEmissions, ToolContentView, type ToolItem, type UseChatResult } from '@mcp-bridge/runtime/react'
import { Confirmation, isBooking } from './Confirmation.tsx'

const STATUS: Record<ToolItem['status'], string> = {
  running: 'Running',
  awaiting_input: 'Waiting for you',
  completed: 'Completed',
  declined: 'Declined',
  cancelled: 'Cancelled',
  failed: 'Failed',
}

const ACTION: Record<ToolItem['answers'][number]['action'], string> = { accept: '✓', decline: 'Declined', cancel: 'Dismissed' }

/**
 * One tool call: its title and status, what the user answered so far (one line per question, so
 * the card keeps a record once the UI closes), progress, logs, and the open question's UI —
 * the plugin's component, or the generated form. A new question takes the keyboard focus.
 */
export function ToolCard({ item, chat, label = item.title }: { item: ToolItem; chat: UseChatResult; label?: string }) {
  const running = item.status === 'running' || item.status === 'awaiting_input'
  const { progress, elicitation } = item
  const questionRef = useRef<HTMLDivElement>(null)
  const questionId = elicitation?.request.id

  // Focus follows a new question: the first control in its UI (rendered by the plugin, maybe a tick later).
  useEffect(() => {
    if (!questionId) return
    let frame = 0
    let tries = 0
    const focusFirst = () => {
      const target = questionRef.current?.querySelector<HTMLElement>('button:not([disabled]), input, select, textarea, [tabindex="0"]')
      if (target) target.focus({ preventScroll: true })
      else if (tries++ < 30) frame = requestAnimationFrame(focusFirst)
    }
    focusFirst()
    return () => cancelAnimationFrame(frame)
  }, [questionId])

  return (
    <section className={`tool ${item.status}`} aria-label={label} data-status={item.status} data-tool={item.toolName}>
      <div className="tool-head">
        <h2 className="tool-title">{item.title}</h2>
        <span className={`tool-status ${item.status}`}>{STATUS[item.status]}</span>
        {running && (
          // "Stop" ends the whole call, as the composer's Stop does; a question's own "Cancel" only answers it.
          <button className="secondary small" onClick={() => void chat.abort(item.callId)} aria-label={`Stop ${label}`}>
            Stop
          </button>
        )}
      </div>
      {item.answers.length > 0 && (
        <ul className="answers" aria-label="Your answers">
          {item.answers.map((a, i) => (
            <li key={i}>
              <span className={`answer-mark ${a.action}`}>{ACTION[a.action]}</span> {a.summary}
            </li>
          ))}
        </ul>
      )}
      {progress && (
        <div className="progress">
          <span>{progress.message}</span>
          {progress.total !== undefined && <progress max={progress.total} value={progress.progress ?? 0} aria-label={progress.message} />}
        </div>
      )}
      {item.logs.length > 0 && (
        <details className="logs">
          <summary>Logs ({item.logs.length})</summary>
          <ul>
            {item.logs.map((l, i) => (
              <li key={i}>
                [{l.level}] {l.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="question" ref={questionRef}>
        {/* The tool's own question, above the plugin's UI (the generated form says it itself). */}
        {elicitation?.handledByPlugin && <p className="question-text">{elicitation.request.message}</p>}
        <ToolCallEmissions store={chat.store} callId={item.callId} />
        {elicitation && !elicitation.handledByPlugin && (
          <>
            <GeneratedForm
              message={elicitation.request.message}
              schema={elicitation.request.schema}
              {...(elicitation.errors && { errors: elicitation.errors })}
              disabled={elicitation.submitting}
              onSubmit={(result) => void chat.respond(item.callId, result)}
            />
            {elicitation.submitting && <SendingAnswer />}
          </>
        )}
      </div>
      {item.status === 'completed' && isBooking(item.result) && <Confirmation booking={item.result} />}
      {/* A result with images, audio or links (withContent): shown as it is. */}
      {item.status === 'completed' && isToolContent(item.result) && <ToolContentView content={item.result.content} />}
      {/* Stopped after a step: what it had done stays done, said plainly (a ticket that exists is never hidden). */}
      {item.status === 'cancelled' && item.alreadyDone && <p className="tool-note">{item.alreadyDone}</p>}
      {item.error && (
        <p className="error" role="alert">
          {item.error}
        </p>
      )}
    </section>
  )
}

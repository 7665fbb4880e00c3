/**
 * The form shown for an elicitation whose tool has no plugin — what a basic MCP client shows:
 * one field per property of the requested schema, required marks, defaults, inline errors, and
 * accept / decline / cancel. Nothing invalid is sent; server-side errors (`errors`) show inline too.
 */
import { useId, useMemo, useState, type FormEvent } from 'react'
import type { IssueSummary } from '../errors/issues.ts'
import type { JsonSchema } from '../schema/json-schema.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import { fieldsFromSchema, initialValues, toContent, validateForm, type FormField, type FormValues } from '../client/form-model.ts'
import { useFieldErrors } from './use-field-errors.ts'

/**
 * The props of `GeneratedForm`: the question, its requested schema, the server's errors, what to do with the answer.
 */
export interface GeneratedFormProps {
  message: string
  schema: JsonSchema
  /** Errors from the server for the previous answer. */
  errors?: readonly IssueSummary[]
  onSubmit(result: ElicitResult<Record<string, unknown>>): void
  disabled?: boolean
}

/** Read by assistive tech, not shown (the visible "*" is hidden from it). */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const

const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const

/**
 * The form a question gets when no plugin handles it, generated from its requested schema: labelled fields,
 * checks before sending, the server's errors on their fields, Decline and Cancel.
 *
 * @example
 * ```tsx
 * import { GeneratedForm, useChat } from '@mcp-bridge/runtime/react'
 *
 * export function Questions() {
 *   const chat = useChat()
 *   return chat.items.map((item) =>
 *     item.kind === 'tool' && item.elicitation && !item.elicitation.handledByPlugin ? (
 *       <GeneratedForm
 *         key={item.id}
 *         message={item.elicitation.request.message}
 *         schema={item.elicitation.request.schema}
 *         errors={item.elicitation.errors}
 *         onSubmit={(result) => chat.respond(item.callId, result)}
 *       />
 *     ) : null,
 *   )
 * }
 * ```
 */
export function GeneratedForm({ message, schema, errors, onSubmit, disabled }: GeneratedFormProps) {
  const formId = useId()
  const fields = useMemo(() => fieldsFromSchema(schema), [schema])
  const [values, setValues] = useState<FormValues>(() => initialValues(fields))
  const [localErrors, setLocalErrors] = useState<IssueSummary[]>([])
  // A field's error goes once the user edits it; the next refusal (here or by the server) shows again.
  const fieldErrors = useFieldErrors(localErrors.length > 0 ? localErrors : errors)
  const formErrors = fieldErrors.rest(fields.map((f) => f.name))

  const set = (name: string, value: FormValues[string]) => {
    setValues((v) => ({ ...v, [name]: value }))
    fieldErrors.edited(name)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    const issues = validateForm(fields, values)
    setLocalErrors(issues)
    if (issues.length === 0) onSubmit({ action: 'accept', content: toContent(fields, values) })
  }

  return (
    <form className="mcp-fallback-form" onSubmit={submit} noValidate aria-describedby={`${formId}-message`}>
      <p id={`${formId}-message`} className="mcp-fallback-message">
        {message}
      </p>
      {fields.map((field) => (
        <Field key={field.name} id={`${formId}-${field.name}`} field={field} value={values[field.name]} errors={fieldErrors.of(field.name)} onChange={(v) => set(field.name, v)} />
      ))}
      {formErrors.map((e, i) => (
        <p key={i} role="alert" className="mcp-field-error">
          {e.message}
        </p>
      ))}
      <div className="mcp-actions">
        <button type="submit" disabled={disabled}>
          Submit
        </button>
        {/* Submit is the one primary action; the others are styled as secondary (`mcp-secondary`). */}
        <button type="button" className="mcp-secondary" disabled={disabled} onClick={() => onSubmit({ action: 'decline' })}>
          Decline
        </button>
        <button type="button" className="mcp-secondary" disabled={disabled} onClick={() => onSubmit({ action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </form>
  )
}

interface FieldProps {
  id: string
  field: FormField
  value: FormValues[string] | undefined
  errors: IssueSummary[]
  onChange(value: FormValues[string]): void
}

function Field({ id, field, value, errors, onChange }: FieldProps) {
  const errorId = `${id}-error`
  const describedBy = errors.length > 0 ? errorId : undefined
  // What the person must give: a multi-select is "required" to be sent, but an empty selection
  // is a valid answer unless it needs at least one — so only then is it marked.
  const mustAnswer = field.kind === 'multi-select' ? (field.minItems ?? 0) > 0 : field.required
  // One inline span, so the required mark stays beside the text whatever the label's layout.
  const label = (
    <span className="mcp-label-text">
      {field.label}
      {mustAnswer && (
        <span className="mcp-required" aria-hidden="true">
          {'\u00a0*'}
        </span>
      )}
    </span>
  )
  const errorText = errors.length > 0 && (
    <span id={errorId} role="alert" className="mcp-field-error">
      {errors.map((e) => e.message).join('; ')}
    </span>
  )
  const hint = field.description && <span className="mcp-field-hint">{field.description}</span>

  if (field.kind === 'checkbox') {
    return (
      <div className="mcp-field">
        <label htmlFor={id} className="mcp-choice">
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} /> {label}
        </label>
        {hint}
        {errorText}
      </div>
    )
  }
  if (field.kind === 'yes-no') {
    return (
      <fieldset className="mcp-field" role="radiogroup" aria-describedby={describedBy} aria-required="true" aria-invalid={errors.length > 0}>
        <legend>{label}</legend>
        {hint}
        {(['Yes', 'No'] as const).map((answer) => (
          <label key={answer} className="mcp-choice">
            <input type="radio" name={id} checked={value === (answer === 'Yes')} onChange={() => onChange(answer === 'Yes')} /> {answer}
          </label>
        ))}
        {errorText}
      </fieldset>
    )
  }
  if (field.kind === 'multi-select') {
    const picked = Array.isArray(value) ? value : []
    return (
      <fieldset className="mcp-field" aria-describedby={describedBy}>
        {/* A group cannot be aria-required: the legend says it in words to assistive tech. */}
        <legend>
          {label}
          {mustAnswer && <span style={VISUALLY_HIDDEN}> (required)</span>}
        </legend>
        {hint}
        {field.choices.map((c) => (
          <label key={c.value} className="mcp-choice">
            <input
              type="checkbox"
              value={c.value}
              checked={picked.includes(c.value)}
              onChange={(e) => onChange(e.target.checked ? [...picked, c.value] : picked.filter((p) => p !== c.value))}
            />{' '}
            {c.label}
          </label>
        ))}
        {errorText}
      </fieldset>
    )
  }
  if (field.kind === 'number' && isSmallScale(field)) {
    // A few whole numbers (a 1–5 rating): one choice each, not a bare spinner to type into.
    const steps = Array.from({ length: field.maximum! - field.minimum! + 1 }, (_, i) => String(field.minimum! + i))
    return (
      <fieldset className="mcp-field mcp-scale" role="radiogroup" aria-describedby={describedBy} aria-required={field.required} aria-invalid={errors.length > 0}>
        <legend>{label}</legend>
        {hint}
        <div className="mcp-scale-steps">
          {steps.map((step) => (
            <label key={step} className="mcp-choice mcp-scale-step">
              <input type="radio" name={id} value={step} checked={value === step} onChange={() => onChange(step)} /> {step}
            </label>
          ))}
        </div>
        {errorText}
      </fieldset>
    )
  }
  const common = {
    id,
    'aria-invalid': errors.length > 0,
    'aria-describedby': describedBy,
    'aria-required': field.required,
  }
  return (
    <div className="mcp-field">
      <label htmlFor={id}>{label}</label>
      {hint}
      {field.kind === 'select' ? (
        <select {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose…</option>
          {field.choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      ) : field.kind === 'number' ? (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...common}
          type={field.format ? INPUT_TYPES[field.format] : 'text'}
          minLength={field.minLength}
          maxLength={field.maxLength}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {errorText}
    </div>
  )
}

/** Whole numbers between two bounds at most ten apart: asked as one choice per number. */
function isSmallScale(field: FormField): boolean {
  return (
    field.kind === 'number' &&
    field.integer &&
    Number.isInteger(field.minimum) &&
    Number.isInteger(field.maximum) &&
    field.maximum! - field.minimum! <= 9 &&
    field.maximum! >= field.minimum!
  )
}

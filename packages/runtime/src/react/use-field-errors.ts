/**
 * `useFieldErrors(errors)`: the errors of a refused answer, per field, for a component that stays
 * mounted while the user corrects it. A field's errors show until that field is edited; new
 * errors (the next refusal) show on every field again.
 *
 *   const fieldErrors = useFieldErrors(errors)
 *   <input onChange={(e) => { setName(e.target.value); fieldErrors.edited('name') }} />
 *   {fieldErrors.of('name').map((e) => <p role="alert">{e.message}</p>)}
 */
import { useState } from 'react'
import type { IssueSummary } from '../errors/issues.ts'

/**
 * A form's errors by field, with each field's errors gone once it is edited.
 */
export interface FieldErrors {
  /** The errors of `field` (its path, or paths under it), unless it was edited since they came. */
  of(field: string): IssueSummary[]
  /** Errors that belong to none of `fields` (shown for the whole form). */
  rest(fields: readonly string[]): IssueSummary[]
  /** The user changed `field`: its errors are out of date. */
  edited(field: string): void
}

const under = (path: string, field: string) => path === field || path.startsWith(`${field}.`)

/**
 * The errors of a refused answer, by field, for a plugin's own form: a field's errors go once the person edits it.
 *
 * @example
 * ```tsx
 * import { useState } from 'react'
 * import type { RenderedProps } from '@mcp-bridge/runtime'
 * import { useFieldErrors } from '@mcp-bridge/runtime/react'
 *
 * export function NameForm({ onRespond, errors }: RenderedProps<{ name: string }>) {
 *   const [name, setName] = useState('')
 *   const fieldErrors = useFieldErrors(errors)
 *   return (
 *     <form onSubmit={(e) => { e.preventDefault(); onRespond({ name }) }}>
 *       <input aria-label="Name" value={name} onChange={(e) => { setName(e.target.value); fieldErrors.edited('name') }} />
 *       {fieldErrors.of('name').map((error) => <p role="alert" key={error.message}>{error.message}</p>)}
 *     </form>
 *   )
 * }
 * ```
 */
export function useFieldErrors(errors: readonly IssueSummary[] | undefined): FieldErrors {
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set())
  const [current, setCurrent] = useState(errors)
  if (current !== errors) {
    // New errors arrived (React's "adjust state while rendering" pattern): every field shows its own again.
    setCurrent(errors)
    setEdited(new Set())
  }
  const list = errors ?? []
  return {
    of: (field) => (edited.has(field) ? [] : list.filter((e) => under(e.path, field))),
    rest: (fields) => list.filter((e) => !fields.some((f) => under(e.path, f))),
    edited: (field) => {
      if (!edited.has(field)) setEdited((before) => new Set(before).add(field))
    },
  }
}

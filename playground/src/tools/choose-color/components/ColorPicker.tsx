import { useState } from 'react'
import type { RenderedProps } from '@mcp-bridge/runtime'
import { useFieldErrors } from '@mcp-bridge/runtime/react'
import { ErrorList } from '../../../components/ErrorList.tsx'

const PRESETS = ['#3b82f6', '#ef4444', '#10b981', '#f59e0b', '#8b5cf6']
type Props = { initial: string } & RenderedProps<{ color: string; name?: string }>

/**
 * A refused answer comes back as new `errors` props to this same mounted component, so what the
 * user typed stays; each field shows its own error until it is edited.
 */
export function ColorPicker({ initial, onRespond, onCancel, errors }: Props) {
  const [color, setColor] = useState(initial)
  const [name, setName] = useState('')
  const fieldErrors = useFieldErrors(errors)
  const edit = (field: string, set: (value: string) => void) => (value: string) => {
    set(value)
    fieldErrors.edited(field)
  }
  const colorError = fieldErrors.of('color')
  const nameError = fieldErrors.of('name')
  return (
    <section className="card" aria-label="Color picker">
      <h3>Pick a color</h3>
      <div className="swatches">
        {PRESETS.map((p) => (
          <button key={p} className="swatch" style={{ background: p }} aria-label={`Preset ${p}`} aria-pressed={color === p} onClick={() => edit('color', setColor)(p)} />
        ))}
      </div>
      <label>
        Hex color
        <input value={color} onChange={(e) => edit('color', setColor)(e.target.value)} aria-invalid={colorError.length > 0} />
      </label>
      <ErrorList errors={colorError} />
      <label>
        Name (optional)
        <input value={name} onChange={(e) => edit('name', setName)(e.target.value)} aria-invalid={nameError.length > 0} />
      </label>
      <ErrorList errors={nameError} />
      <div className="preview" style={{ background: /^#[0-9a-fA-F]{6}$/.test(color) ? color : 'transparent' }} aria-hidden="true" />
      <ErrorList errors={fieldErrors.rest(['color', 'name'])} />
      <div className="actions">
        <button onClick={() => onRespond({ color, ...(name && { name }) })}>Use this color</button>
        <button className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}

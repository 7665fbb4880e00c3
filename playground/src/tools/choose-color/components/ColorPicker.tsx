import { useState } from 'react'
import type { RenderedProps } from '@mcp-bridge/runtime'
import { ErrorList } from '../../../components/ErrorList.tsx'

const PRESETS = ['#3b82f6', '#ef4444', '#10b981', '#f59e0b', '#8b5cf6']
type Props = { initial: string } & RenderedProps<{ color: string; name?: string }>

export function ColorPicker({ initial, onRespond, onCancel, errors }: Props) {
  const [color, setColor] = useState(initial)
  const [name, setName] = useState('')
  return (
    <section className="card" aria-label="Color picker">
      <h3>Pick a color</h3>
      <div className="swatches">
        {PRESETS.map((p) => (
          <button key={p} className="swatch" style={{ background: p }} aria-label={`Preset ${p}`} aria-pressed={color === p} onClick={() => setColor(p)} />
        ))}
      </div>
      <label>
        Hex color
        <input value={color} onChange={(e) => setColor(e.target.value)} aria-invalid={Boolean(errors?.length)} />
      </label>
      <label>
        Name (optional)
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <div className="preview" style={{ background: /^#[0-9a-fA-F]{6}$/.test(color) ? color : 'transparent' }} aria-hidden="true" />
      <ErrorList errors={errors} />
      <div className="actions">
        <button onClick={() => onRespond({ color, ...(name && { name }) })}>Use this color</button>
        <button className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}

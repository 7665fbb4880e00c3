import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { createPlugin, type RenderedProps } from '@mcp-bridge/runtime'
import { noteForm, type NoteForm } from '../../lib/schemas.ts'
import { saveNote } from './tool.ts'

function NoteDetails({ onRespond }: RenderedProps<NoteForm>) {
  const { register, handleSubmit, formState } = useForm<z.input<typeof noteForm>, unknown, NoteForm>({ resolver: zodResolver(noteForm), defaultValues: { title: '', pinned: false } })
  return (
    <form onSubmit={handleSubmit((values) => onRespond(values))}>
      <label>
        Title <input {...register('title')} />
      </label>
      {formState.errors.title && <p role="alert">{formState.errors.title.message}</p>}
      <label>
        <input type="checkbox" {...register('pinned')} /> Pin it
      </label>
      <button type="submit">Save note</button>
    </form>
  )
}

export const saveNotePlugin = createPlugin(saveNote)
  .onElicit({
    *details(_req, ctx) {
      return { action: 'accept', content: yield* ctx.render(NoteDetails, {}) }
    },
  })
  .build()

// The app's own test, run by its Vitest with its vite.config.ts: the tool file imports as written.
import { describe, expect, it } from 'vitest'
import { saveNote } from '../src/tools/notes/tool.ts'
import { noteForm } from '../src/lib/schemas.ts'

describe('notes', () => {
  it('defines the tool and its form', () => {
    expect(saveNote.name).toBe('save_note')
    expect(noteForm.safeParse({ title: 'ab' }).success).toBe(false)
  })
})

// Shared by the tool (the question's schema) and the form (its resolver).
import { z } from 'zod'

export const noteForm = z.object({
  title: z.string().min(3, 'At least 3 characters').max(60).describe('Title'),
  pinned: z.boolean().default(false).describe('Pin it'),
})

export type NoteForm = z.infer<typeof noteForm>

import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'
import { saveNote } from '../../server/notes.server.ts'

// A helper beside the tool, as people write them: only the body uses it, so the browser never gets it.
function noteLabel(id: number, store: string): string {
  return `${process.env.NOTES_PREFIX ?? 'Note'} #${id} (${store})`
}

export const saveNoteTool = createMcpTool('save_note')
  .title('Save a note')
  .description('Ask for a title and save a note under it.')
  .elicits({ title: z.object({ title: z.string().min(1).max(80) }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('title', { message: 'What should the note be called?' })
    if (answer.action !== 'accept') return 'No note saved.'
    const { id, store } = saveNote(answer.content.title)
    return `Saved ${noteLabel(id, store)}: ${answer.content.title}`
  })

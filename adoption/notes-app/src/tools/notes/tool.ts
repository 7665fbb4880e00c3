import { createHmac } from 'node:crypto'
import { createMcpTool } from '@mcp-bridge/runtime'
import { call } from 'effection'
import { z } from 'zod'
import { noteForm } from '../../lib/schemas.ts'
import { stored } from '../../server/notes-api.server.ts'
import { users } from '../../server/sessions.server.ts'

// Written the way helpers usually are: beside the tool, reading the environment.
const NOTES_API_URL = process.env.NOTES_API_URL ?? 'http://localhost:4010'
const SIGNING_SECRET = 'notes-signing-secret-NOTES_SERVER_ONLY'

function sign(payload: string) {
  return createHmac('sha256', process.env.NOTES_SIGNING_KEY ?? SIGNING_SECRET).update(payload).digest('hex')
}

async function createNote(userId: string, title: string, pinned: boolean) {
  const token = users[userId]?.notesToken ?? 'anonymous'
  const body = JSON.stringify({ title, pinned })
  // A real app would fetch(`${NOTES_API_URL}/notes`, ...) with the user's token; here the mock stores it.
  stored.push({ title, pinned, token, signature: sign(body) })
  return { id: stored.length, url: `${NOTES_API_URL}/notes/${stored.length}` }
}

export const saveNote = createMcpTool('save_note')
  .title('Save a note')
  .description('Ask for a title and save a note for the signed-in user.')
  .parameters(z.object({ topic: z.string().optional() }))
  .elicits({ details: noteForm })
  .execute(function* (params, ctx) {
    const answer = yield* ctx.elicit('details', { message: params.topic ? `A note about ${params.topic}?` : 'What is the note?' })
    if (answer.action !== 'accept') return 'No note saved.'
    const userId = ctx.auth?.subject
    if (!userId) return 'Sign in to save notes.'
    const note = yield* ctx.step('create note', function* () {
      return yield* call(() => createNote(userId, answer.content.title, answer.content.pinned))
    })
    return `Saved "${answer.content.title}" for ${String(ctx.auth?.extra?.name)} (#${note.id})`
  })

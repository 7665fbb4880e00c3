import { createPlugin } from '@mcp-bridge/runtime'
import { saveNoteTool } from './tool.ts'

// The question gets the form generated from its schema.
export const saveNotePlugin = createPlugin(saveNoteTool)
  .onElicit({
    *title(_req, ctx) {
      return yield* ctx.generatedForm()
    },
  })
  .build()

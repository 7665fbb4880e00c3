/**
 * The chat route of an AI SDK app (streamText + the UI message stream), served by the Vite plugin
 * at /api/chat. The lines marked "mcp-bridge" are all the bridge adds.
 */
import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, stepCountIs, streamText, type UIMessage } from 'ai'
import { createAppServer } from '@mcp-bridge/runtime/server' // mcp-bridge (serving)
import { createAiSdkBridge } from '@mcp-bridge/runtime/ai-sdk' // mcp-bridge
import { serverTools } from '../mcp-bridge/server.gen.ts' // mcp-bridge
import { loadChat, saveChat } from './chat-files.ts'
import { model } from './scripted-model.ts'
import { callStore } from './store.ts'

const bridge = createAiSdkBridge({ tools: serverTools, model, store: await callStore() }) // mcp-bridge

async function chat(request: Request): Promise<Response> {
  if (request.method === 'GET') {
    const id = new URL(request.url).searchParams.get('id') ?? ''
    return Response.json(await loadChat(id))
  }
  const { id, messages }: { id: string; messages: UIMessage[] } = await request.json()
  const stream = createUIMessageStream({
    originalMessages: messages,
    execute: async ({ writer }) => {
      const turn = await bridge.prepare({ messages, writer }) // mcp-bridge: answers and cancels
      if (!turn.callModel) return // mcp-bridge: a question is open
      const result = streamText({
        model,
        messages: await convertToModelMessages(turn.messages),
        tools: turn.tools, // mcp-bridge
        stopWhen: [stepCountIs(8), bridge.waitingForUser], // mcp-bridge
        abortSignal: request.signal,
      })
      writer.merge(result.toUIMessageStream())
    },
    onFinish: ({ messages }) => saveChat(id, messages),
  })
  return createUIMessageStreamResponse({ stream })
}

export default createAppServer({ chat, close: () => bridge.close() }) // mcp-bridge (serving)

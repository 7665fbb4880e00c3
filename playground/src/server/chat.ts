/**
 * The chat handler the playground mounts at /api/chat. Offline by default (the scripted demo
 * model); with OPENAI_BASE_URL / OPENAI_API_KEY / MODEL set it talks to a real model through the
 * AI SDK's OpenAI-compatible provider (OpenAI, Ollama, LM Studio, ...), with no code change.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { createChatHandler, createAiSdkModel, type ChatModel } from '@mcp-bridge/runtime/server'
import { serverTools } from '../mcp-bridge/server.gen.ts'
import { chooseStore } from './store.ts'
import { demoModel } from './demo-model.ts'
import { authenticate } from './demo-users.ts'

export function chooseModel(env: Record<string, string | undefined> = process.env): ChatModel {
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) return demoModel
  const provider = createOpenAI({
    ...(env.OPENAI_BASE_URL && { baseURL: env.OPENAI_BASE_URL }),
    apiKey: env.OPENAI_API_KEY ?? 'not-needed',
  })
  return createAiSdkModel(provider.chat(env.MODEL ?? 'gpt-4o-mini'))
}

/** Durable tool calls: SQLite under playground/data/, or Redis with REDIS_URL (see store.ts). */
export const store = await chooseStore()

export const chat = createChatHandler({
  tools: serverTools,
  model: chooseModel(),
  store,
  // Who is signed in (the header's demo users): tools read it as ctx.auth, and a call is theirs alone.
  authenticate,
  system: 'You are a travel assistant. Use the tools to book flights, pick colors, collect ratings and build reports.',
})

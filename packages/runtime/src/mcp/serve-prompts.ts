/**
 * `prompts/list` and `prompts/get` for the prompts given to `createMcpServer({ prompts })`. One
 * page holds them all. Arguments are checked with the prompt's zod schema before its messages
 * are made: a missing or wrong one is -32602 naming it, an unknown prompt -32602 naming those
 * there are; a prompt whose body throws answers -32603 with its message when it is ours
 * (`McpBridgeError`), a plain sentence otherwise (the details go to `onError`).
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'
import type { McpPrompt } from '../prompt/create-mcp-prompt.ts'
import { refuseCursor } from './one-page.ts'

export function servePrompts(server: McpServer['server'], prompts: ReadonlyMap<string, McpPrompt>, onError: (error: Error) => void): void {
  server.setRequestHandler('prompts/list', async (request) => {
    refuseCursor(request.params?.cursor, 'prompt')
    return {
      prompts: [...prompts.values()].map((prompt) => ({
        name: prompt.name,
        ...(prompt.title !== undefined && { title: prompt.title }),
        ...(prompt.description !== undefined && { description: prompt.description }),
        arguments: prompt.arguments.map((a) => ({ ...a })),
      })),
    }
  })
  server.setRequestHandler('prompts/get', async (request) => {
    const { name } = request.params
    const prompt = prompts.get(name)
    if (!prompt) {
      const known = [...prompts.keys()].map((n) => `"${n}"`).join(', ')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${name}". This server has: ${known || 'no prompts'}.`)
    }
    const args = prompt.argumentsSchema.safeParse(request.params.arguments ?? {})
    if (!args.success) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Arguments of prompt "${name}": ${formatIssues(summarizeIssues(args.error.issues))}`)
    }
    try {
      return { ...(prompt.description !== undefined && { description: prompt.description }), messages: await prompt.render(args.data) }
    } catch (error) {
      if (!(error instanceof McpBridgeError)) onError(error instanceof Error ? error : new Error(String(error)))
      throw new ProtocolError(ProtocolErrorCode.InternalError, error instanceof McpBridgeError ? error.message : `Prompt "${name}" failed while making its messages.`)
    }
  })
}

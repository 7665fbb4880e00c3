/**
 * `completion/complete`: suggestions for a prompt's argument (`ref/prompt`) or a resource
 * template's variable (`ref/resource`, by its template) as the user types — the prompt's or
 * resource's completer, or a prompt enum's options. At most 100 values, with the total.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server'
import type { McpPrompt } from '../prompt/create-mcp-prompt.ts'
import type { McpResource } from '../resource/create-mcp-resource.ts'

const MAX_VALUES = 100

export function serveCompletions(server: McpServer['server'], prompts: ReadonlyMap<string, McpPrompt>, resources: readonly McpResource[]): void {
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params
    const context = { arguments: { ...request.params.context?.arguments } }
    let values: string[]
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.get(ref.name)
      if (!prompt)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown prompt "${ref.name}". This server has: ${[...prompts.keys()].map((n) => `"${n}"`).join(', ') || 'no prompts'}.`,
        )
      values = await prompt.complete(argument.name, argument.value, context)
    } else {
      const resource = resources.find((r) => r.uri === ref.uri)
      if (!resource)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown resource template "${String(ref.uri).slice(0, 200)}". This server has: ${
            resources
              .filter((r) => r.isTemplate)
              .map((r) => r.uri)
              .join(', ') || 'none'
          }.`,
        )
      values = await resource.complete(argument.name, argument.value, context)
    }
    return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } }
  })
}

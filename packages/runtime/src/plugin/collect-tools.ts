/**
 * The tools a host serves, from what its options list: tools, and plugins (which contribute
 * their tool). One helper for the chat handler and the MCP server, so both refuse the same
 * mistakes with the same words.
 */
import { isMcpTool, type AnyMcpTool } from '../tool/mcp-tool.ts'
import { isMcpPlugin } from './create-plugin.ts'
import { ToolListError } from '../errors/definition-errors.ts'

/** `where` names the option in messages, e.g. `createChatHandler({ tools })`. */
export function collectTools(entries: unknown, where: string): ReadonlyMap<string, AnyMcpTool> {
  if (!Array.isArray(entries)) throw new ToolListError(`${where} takes an array of tools and plugins.`)
  const tools = new Map<string, AnyMcpTool>()
  entries.forEach((entry: unknown, index) => {
    const tool = isMcpPlugin(entry) ? entry.mcp : entry
    if (!isMcpTool(tool)) {
      throw new ToolListError(`${where}: tools[${index}] is not a tool or plugin; pass what createMcpTool(...).execute(...) or createPlugin(...).build() returned.`)
    }
    const other = tools.get(tool.name)
    if (other && other !== tool) {
      throw new ToolListError(`${where}: two different tools are named "${tool.name}" (tools[${index}] and an earlier one); tool names must be unique.`)
    }
    tools.set(tool.name, tool)
  })
  return tools
}

/**
 * The conformance app: the suite's test tools, prompts and resources served over Streamable HTTP at `/mcp` on
 * 127.0.0.1, as a user of mcp-bridge would serve them. `startConformanceServer()` resolves with
 * its URL; run alone (`node --import tsx conformance/server.ts`) it prints it.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { conformancePrompts } from './prompts.ts'
import { conformanceResources } from './resources.ts'
import { conformanceTools } from './tools.ts'

export async function startConformanceServer(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const mcp = createMcpServer({ name: 'mcp-bridge-conformance', version: '1.0.0', tools: conformanceTools, prompts: conformancePrompts, resources: conformanceResources })
  const handler = mcp.createHandler()
  const http = createServer(handler.node)
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
      await mcp.close()
    },
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startConformanceServer(Number(process.env.PORT ?? 0))
  console.log(`conformance server at ${url}`)
}

import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

// TanStack Start serves the chat and MCP routes itself (src/routes/api/chat.ts, src/routes/mcp.ts):
// the plugin only finds the tools, checks them and writes the registries to src/mcp-bridge/.
export default defineConfig({
  plugins: [mcpBridge(), tanstackStart(), viteReact()],
})

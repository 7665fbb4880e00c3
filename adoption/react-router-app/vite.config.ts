import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

// React Router serves the chat and MCP routes itself (app/routes/api.chat.ts, app/routes/mcp.ts):
// the plugin only finds the tools in app/, checks them and writes the registries to app/mcp-bridge/.
export default defineConfig({
  plugins: [mcpBridge({ include: ['app/**/*.{ts,tsx}'], outDir: 'app/mcp-bridge' }), reactRouter()],
})

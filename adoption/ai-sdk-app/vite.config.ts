import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin' // mcp-bridge

// The plugin finds the tools and serves src/server/app.ts at /api/chat (dev, preview, and the build's dist/server).
export default defineConfig({
  plugins: [react(), mcpBridge({ server: 'src/server/app.ts' })], // mcp-bridge
})

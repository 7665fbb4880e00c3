import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

export default defineConfig({
  plugins: [react(), mcpBridge({ server: 'src/server/app.ts' })],
})

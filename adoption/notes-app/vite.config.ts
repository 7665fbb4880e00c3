import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

// Loaded by `vite`, `vite build`, the app's Vitest and its vite-node script alike.
export default defineConfig({
  plugins: [react(), mcpBridge({ server: 'src/server/app.ts' })],
})

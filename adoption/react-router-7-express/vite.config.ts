import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

export default defineConfig(({ isSsrBuild }) => ({
  build: { rollupOptions: isSsrBuild ? { input: './server/app.ts' } : undefined },
  plugins: [mcpBridge({ include: ['app/**/*.{ts,tsx}'], outDir: 'app/mcp-bridge' }), reactRouter()],
}))

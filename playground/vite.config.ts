import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

export default defineConfig({
  plugins: [
    react(),
    // `server`: the chat (/api/chat) and MCP endpoint (/mcp) in dev and preview, and
    // `node dist/server/index.js` after `vite build`. Nothing server-side is imported here.
    // `apps`: each plugin's UI also as an MCP Apps view, for hosts that render them (served at /mcp
    // and by `npm run mcp`), styled by the app's own stylesheet.
    mcpBridge({ exclude: ['src/server/**'], server: 'src/server/app.ts', apps: { include: ['src/styles.css'] } }),
  ],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
  preview: { host: '127.0.0.1' },
  // The runtime is a linked workspace package: pre-bundle what it imports at startup, so the
  // first page load does not trigger a re-optimisation (and a reload).
  optimizeDeps: {
    include: ['react', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'effection', 'zod', 'react-markdown'],
    noDiscovery: true,
  },
})

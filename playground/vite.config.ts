import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'
import { chatMiddleware } from '@mcp-bridge/runtime/server'

/**
 * Mounts the chat handler at /api/chat in the dev server, loaded through Vite so TS and the generated
 * registry work. The built app is served by server.mjs (npm run build && npm run serve).
 */
function chatServer(): Plugin {
  return {
    name: 'playground-chat',
    configureServer(server) {
      server.middlewares.use(
        chatMiddleware(async (request) => {
          const { chat } = (await server.ssrLoadModule('/src/server/chat.ts')) as typeof import('./src/server/chat.ts')
          return chat(request)
        }),
      )
    },
  }
}

export default defineConfig({
  plugins: [react(), mcpBridge({ exclude: ['src/server/**'] }), chatServer()],
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173) },
  // The runtime is a linked workspace package: pre-bundle what it imports at startup, so the
  // first page load does not trigger a re-optimisation (and a reload).
  optimizeDeps: {
    include: ['react', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'effection', 'zod', 'react-markdown'],
    noDiscovery: true,
  },
})

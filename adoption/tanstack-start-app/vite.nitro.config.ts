import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { nitro } from 'nitro/vite'
import { defineConfig } from 'vite'
import { mcpBridge } from '@mcp-bridge/vite-plugin'

// The same app as Start's scaffolder makes it (`npm create @tanstack/start`): Nitro serves it, in
// `vite dev` (Start's SSR in Nitro's worker) and from `vite build`'s `.output/`. `serverEntry: false`
// only because this app also has the srvx `server.mjs` of vite.config.ts, which Nitro would take as
// its own entry; a scaffolded app has none.
export default defineConfig({
  plugins: [mcpBridge(), tanstackStart(), nitro({ serverEntry: false }), viteReact()],
})

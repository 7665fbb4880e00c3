/**
 * The playground's stdio MCP server (`scripts/mcp-stdio.ts`) built to plain JavaScript,
 * `dist/stdio/mcp-stdio.js`, so a client that launches it waits for Node alone — no TypeScript
 * loader at start. Run by `npm run build` after `vite build`; dependencies stay imports.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    ssr: 'scripts/mcp-stdio.ts',
    outDir: 'dist/stdio',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: { output: { entryFileNames: 'mcp-stdio.js' } },
  },
})

#!/usr/bin/env node
// `node playground/bin/mcp-stdio.mjs` from any directory: registers tsx (resolved next to this
// file, not from the caller's cwd) and serves the playground's tools over stdio.
import { register } from 'tsx/esm/api'

register()
await import('../scripts/mcp-stdio.ts')

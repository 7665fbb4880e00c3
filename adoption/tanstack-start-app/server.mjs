// The built app under Node: TanStack Start's fetch handler (dist/server/server.js) behind srvx,
// with the built client's files (dist/client) served first. PORT (default 3000), HOST (default 127.0.0.1).
import { serve } from 'srvx'
import { staticMiddleware } from 'srvx/static'
import handler from './dist/server/server.js'

serve({
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? '127.0.0.1',
  middleware: [staticMiddleware({ dir: 'dist/client' })],
  fetch: handler.fetch,
})

import { type RouteConfig, index } from '@react-router/dev/routes'

// The chat and the MCP endpoint are Express routes (server/app.ts), ahead of React Router's handler.
export default [index('routes/home.tsx')] satisfies RouteConfig

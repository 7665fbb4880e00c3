import { type RouteConfig, index, route } from '@react-router/dev/routes'

export default [
  index('routes/home.tsx'),
  // Resource routes: the chat and the MCP endpoint, served by React Router's own server.
  route('api/chat', 'routes/api.chat.ts'),
  route('mcp', 'routes/mcp.ts'),
] satisfies RouteConfig

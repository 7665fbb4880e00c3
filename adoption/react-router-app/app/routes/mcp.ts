import { mcp } from '../server/mcp-bridge.server.ts'
import type { Route } from './+types/mcp'

// Streamable HTTP: GET opens a session's stream, POST carries messages, DELETE ends a session.
export const loader = ({ request }: Route.LoaderArgs) => mcp.fetch(request)
export const action = ({ request }: Route.ActionArgs) => mcp.fetch(request)

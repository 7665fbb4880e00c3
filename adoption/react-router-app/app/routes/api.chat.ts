import { chat } from '../server/mcp-bridge.server.ts'
import type { Route } from './+types/api.chat'

// POST a turn; GET and DELETE ?conversation=<id> restore and delete a kept conversation.
export const loader = ({ request }: Route.LoaderArgs) => chat(request)
export const action = ({ request }: Route.ActionArgs) => chat(request)

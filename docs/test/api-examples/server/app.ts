import { createAppServer } from '@mcp-bridge/runtime/server'
import { chat } from '../chat.ts'

export default createAppServer({ chat })

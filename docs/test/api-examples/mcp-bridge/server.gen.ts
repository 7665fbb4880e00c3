// Stands for the registry `mcp-bridge generate` writes.
import type { AnyMcpTool } from '@mcp-bridge/runtime'
import { bookFlight } from '../tools.ts'

export const serverTools: readonly AnyMcpTool[] = [bookFlight]

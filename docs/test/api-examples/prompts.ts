import { createMcpPrompt } from '@mcp-bridge/runtime'

export const review = createMcpPrompt('review').messages(() => 'Review this.')

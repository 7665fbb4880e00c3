import { createMcpResource } from '@mcp-bridge/runtime'

export const readme = createMcpResource('docs://readme').read(() => '# Readme')

/** @mcp-bridge/runtime/react — filled in by its issue. */
export {}

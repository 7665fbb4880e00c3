/** @mcp-bridge/runtime/server — filled in by its issue. */
export {}

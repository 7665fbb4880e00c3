/** @mcp-bridge/runtime/mcp — filled in by its issue. */
export {}

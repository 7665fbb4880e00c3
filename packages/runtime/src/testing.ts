/** @mcp-bridge/runtime/testing — filled in by its issue. */
export {}

#!/usr/bin/env node
// The `mcp-bridge` CLI: plain Node 20, running the package's built JavaScript.
import { main } from '../dist/cli.js'

process.exitCode = await main(process.argv.slice(2))

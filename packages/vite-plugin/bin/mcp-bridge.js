#!/usr/bin/env node
// The `mcp-bridge` CLI: plain Node 20, running the package's built JavaScript. The run happens in
// a supervised child process, so a tool module that loops or exits cannot hang or fool CI.
import { superviseCli } from '../dist/cli-supervisor.js'

process.exitCode = await superviseCli(process.argv.slice(2))

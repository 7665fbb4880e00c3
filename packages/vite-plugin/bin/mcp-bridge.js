#!/usr/bin/env node
// Runs the TypeScript CLI under plain Node 20 through tsx's loader.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli.ts')
process.exitCode = await main(process.argv.slice(2))

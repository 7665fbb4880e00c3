// React Router 7's custom Express server (its node-custom-server template), with mcp-bridge's
// chat and MCP endpoint mounted ahead of React Router's request handler.
import 'react-router'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { chatMiddleware } from '@mcp-bridge/runtime/server'
import { chat, mcp } from '../app/server/mcp-bridge.server.ts'

export const app = express()

app.use(chatMiddleware(chat, { path: '/api/chat' }))
app.all('/mcp', mcp.node)
app.use(createRequestHandler({ build: () => import('virtual:react-router/server-build') }))

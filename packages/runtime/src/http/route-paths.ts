/**
 * The route path rule (`route-path-rule.ts`) as a zod schema, for options checked with zod.
 */
import { z } from 'zod/v4'
import { ROUTE_PATH_HINT, ROUTE_PATH_PATTERN } from './route-path-rule.ts'

export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, routePaths } from './route-path-rule.ts'

export const routePathSchema = z.string().regex(ROUTE_PATH_PATTERN, ROUTE_PATH_HINT)

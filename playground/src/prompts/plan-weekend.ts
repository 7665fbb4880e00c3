/**
 * A prompt MCP clients offer in their prompt menus: a weekend away, as a request the model
 * then carries out with the tools (search and book a flight, plan the trip). The city argument
 * suggests the demo's destinations as the user types.
 */
import { createMcpPrompt } from '@mcp-bridge/runtime'
import { z } from 'zod'

const CITIES = ['Berlin', 'Lisbon', 'Oslo', 'Paris', 'Rome', 'Vienna']

export const planWeekend = createMcpPrompt('plan_weekend')
  .title('Plan a weekend away')
  .description('Ask for a flight and a plan for a weekend in a city')
  .arguments(z.object({ city: z.string().describe('Where to go'), from: z.string().describe('Where you fly from').optional() }))
  .complete({ city: (typed) => CITIES.filter((c) => c.toLowerCase().startsWith(typed.toLowerCase())) })
  .messages(({ city, from }) => `Plan a weekend in ${city}${from ? `, flying from ${from}` : ''}: find a flight, book a seat, and suggest what to do.`)

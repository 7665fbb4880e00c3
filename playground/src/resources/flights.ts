/**
 * The demo's flights between two cities as an MCP resource template: a client reads
 * `flights://Oslo/Berlin` (or lets the model attach it) without calling a tool.
 */
import { createMcpResource } from '@mcp-bridge/runtime'
import { searchFlights } from '../tools/book-flight/data.ts'

export const flights = createMcpResource('flights://{from}/{to}')
  .name('flights')
  .title('Flights between two cities')
  .description('The flights book_flight offers between two cities, as JSON')
  .mimeType('application/json')
  .read(({ from, to }) => JSON.stringify(searchFlights(from!, to!), null, 2))

/** An answer in one line for people: labels, choice titles, Yes/No, lists, and a bound on length. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { analyzeResponseSchema } from '../../src/schema/analyze-elicit-schema.ts'
import { fieldLabel, summarizeAnswer } from '../../src/schema/field-labels.ts'

const wire = analyzeResponseSchema(
  z.object({
    flightId: z.string(),
    cabin: z.enum(['eco', 'biz']).meta({
      oneOf: [
        { const: 'eco', title: 'Economy' },
        { const: 'biz', title: 'Business' },
      ],
    }),
    meals: z.array(z.enum(['veg', 'fish'])),
    window: z.boolean(),
    note: z.string().meta({ title: 'Your note' }).optional(),
  }),
).wire!

describe('summarizeAnswer', () => {
  it('says each field in schema order with its label, choices by title, booleans as Yes/No', () => {
    expect(summarizeAnswer(wire, { window: false, flightId: 'CA-287', cabin: 'biz', meals: ['veg', 'fish'] })).toBe(
      'Flight id: CA-287 · Cabin: Business · Meals: Veg, Fish · Window: No',
    )
    expect(summarizeAnswer(wire, { flightId: 'X', note: 'aisle please', meals: [] })).toBe('Flight id: X · Your note: aisle please')
  })

  it('says an id picked by its title without the "id", and an untitled choice in words (never its raw value)', () => {
    const flights = { type: 'string', oneOf: [{ const: 'SH-792', title: 'SkyHigh SH-792, 08:00–11:30' }] }
    expect(fieldLabel('flightId', flights)).toBe('Flight')
    expect(fieldLabel('activity_id', flights)).toBe('Activity')
    expect(summarizeAnswer({ type: 'object', properties: { flightId: flights } }, { flightId: 'SH-792' })).toBe('Flight: SkyHigh SH-792, 08:00–11:30')
    // A free-text id, or choices that are their own titles, keep it: the value is what was picked.
    expect(fieldLabel('flightId', { type: 'string' })).toBe('Flight id')
    expect(fieldLabel('roomId', { type: 'string', enum: ['101', '102'] })).toBe('Room id')
    const cabin = { type: 'string', enum: ['economy', 'premium_economy', 'firstClass', 'A1', 'JS-501'] }
    expect(summarizeAnswer({ type: 'object', properties: { cabin } }, { cabin: 'premium_economy' })).toBe('Cabin: Premium economy')
    expect(summarizeAnswer({ type: 'object', properties: { cabin } }, { cabin: 'firstClass' })).toBe('Cabin: First class')
    expect(summarizeAnswer({ type: 'object', properties: { cabin } }, { cabin: 'JS-501' })).toBe('Cabin: JS-501')
  })

  it('names a camelCase field in words and keeps an acronym', () => {
    expect(fieldLabel('highChair', {})).toBe('High chair')
    expect(fieldLabel('homeURL', {})).toBe('Home URL')
    expect(fieldLabel('seat_row-2', {})).toBe('Seat row 2')
    expect(fieldLabel('x', { title: 'Given title' })).toBe('Given title')
  })

  it('ignores what is not an object and bounds the line', () => {
    expect(summarizeAnswer(wire, 'nope')).toBe('')
    const line = summarizeAnswer(wire, { flightId: 'x'.repeat(1_000) })
    expect(line).toHaveLength(300)
    expect(line.endsWith('…')).toBe(true)
  })
})

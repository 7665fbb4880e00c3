/**
 * The chat's main states, walked in order in one conversation: the accessibility scan checks each
 * and `npm run docs:screenshots` photographs each. `visit` runs with the page in that state.
 */
import type { Page } from 'playwright-core'

export const MAIN_STATES = ['empty-chat', 'flight-list', 'seat-map', 'confirmation', 'error', 'fallback-form'] as const
export type MainState = (typeof MAIN_STATES)[number]

export async function walkMainStates(page: Page, visit: (state: MainState) => Promise<void>): Promise<void> {
  const send = async (text: string) => {
    await page.getByLabel('Message').fill(text)
    await page.getByLabel('Message').press('Enter')
  }
  await page.getByLabel('Message').waitFor()
  await visit('empty-chat')
  await send('Book a flight from Oslo to Berlin')
  await page.getByRole('button', { name: /JetStream JS-501/ }).waitFor()
  await visit('flight-list')
  await page.getByRole('button', { name: /JetStream JS-501/ }).click()
  await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
  await visit('seat-map')
  await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
  await page.getByText(/You're booked!/).waitFor()
  await visit('confirmation')
  await send('Pick a theme color')
  await page.getByLabel('Hex color').fill('blue')
  await page.getByRole('button', { name: 'Use this color' }).click()
  await page.getByText('Use a hex color like #3b82f6').waitFor()
  await visit('error')
  await page.getByRole('button', { name: 'Cancel', exact: true }).click()
  await send('Rate my trip')
  await page.getByRole('button', { name: 'Submit' }).click()
  await page.locator('.mcp-fallback-form [role="alert"]').first().waitFor()
  await visit('fallback-form')
}

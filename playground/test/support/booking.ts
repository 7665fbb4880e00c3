/** The booking walk the e2e test checks and the doc screenshot shows: Oslo → Berlin, JetStream JS-501, seat 3B. */
import type { Page } from 'playwright-core'

export async function bookOsloToBerlin(page: Page): Promise<void> {
  await page.getByLabel('Message').fill('Book a flight from Oslo to Berlin')
  await page.getByLabel('Message').press('Enter')
  await page.getByRole('button', { name: /JetStream JS-501/ }).click()
  await page.getByRole('button', { name: 'Seat 3B', exact: true }).click()
  await page.getByRole('button', { name: 'Confirm seat 3B' }).click()
  await page.getByLabel('Booking confirmation').waitFor()
  await page.getByText(/You're booked! Ticket TK-JS-501-3B/).waitFor()
}

interface Booking {
  booked: true
  ticketNumber: string
  flight: string
  seat: string
  price: number
  route: string
  departs: string
  /** The signed-in user the ticket is for. */
  passenger?: string
}

export function isBooking(value: unknown): value is Booking {
  return typeof value === 'object' && value !== null && (value as { booked?: unknown }).booked === true
}

/** book_flight's result, as a card. */
export function Confirmation({ booking }: { booking: Booking }) {
  return (
    <div className="card confirmation" aria-label="Booking confirmation">
      <h3>Booking confirmed</h3>
      <dl>
        <dt>Ticket</dt>
        <dd>{booking.ticketNumber}</dd>
        {booking.passenger && (
          <>
            <dt>Passenger</dt>
            <dd>{booking.passenger}</dd>
          </>
        )}
        <dt>Flight</dt>
        <dd>
          {booking.flight} · {booking.route} · {booking.departs}
        </dd>
        <dt>Seat</dt>
        <dd>{booking.seat}</dd>
        <dt>Price</dt>
        <dd>${booking.price}</dd>
      </dl>
    </div>
  )
}

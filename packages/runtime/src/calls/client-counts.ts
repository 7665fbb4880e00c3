/** How many things (calls, sessions) each client holds, for per-client limits. */
export class ClientCounts {
  readonly #held = new Map<string, number>()

  of(client: string): number {
    return this.#held.get(client) ?? 0
  }

  add(client: string): void {
    this.#held.set(client, this.of(client) + 1)
  }

  /** One fewer; a client holding nothing is forgotten, so the map stays as small as the live set. */
  remove(client: string): void {
    const held = this.of(client) - 1
    if (held > 0) this.#held.set(client, held)
    else this.#held.delete(client)
  }
}

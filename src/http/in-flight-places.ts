/** One admitted request's place among those under way. */
export interface Place {
  released: boolean
}

/**
 * The places of the requests under way: the work the overload bound limits is a request's own
 * (its hooks, handler and store calls), so a place is held from admission until that work has
 * produced the answer (onSend), whether or not the client is still there to read it. A client
 * that leaves does not end work it started; a client that does not read (a pipelined answer
 * queued behind another, a big list to a paused socket) holds no place meanwhile: writing its
 * answer is paced by the reader and costs no work until it reads.
 */
export class InFlightPlaces {
  private taken = 0

  constructor(private readonly limit: number) {}

  /** A place, or null when all are taken. */
  take(): Place | null {
    if (this.taken >= this.limit) return null
    this.taken += 1
    return { released: false }
  }

  release(place: Place): void {
    if (place.released) return
    place.released = true
    this.taken -= 1
  }
}

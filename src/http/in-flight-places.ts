import type { Socket } from 'node:net'

/** One admitted request's place among those under way. */
export interface Place {
  released: boolean
  /** Takes the place off its connection's list of answers not yet sent. */
  forget: (() => void) | null
}

/**
 * The places of the requests under way, each held from admission until its work is done and its
 * answer sent, or its client gone. Node.js emits neither 'finish' nor 'close' on a response whose
 * connection ended before the response was attached to it (a client that left while its request
 * worked, or a pipelined answer queued behind another), so a place is given back on whichever
 * comes first: the answer sent; the answer produced on a connection already closed; or the
 * connection closing after the answer was produced. A client that leaves does not end the work
 * it started: its place is held until that work has answered.
 */
export class InFlightPlaces {
  private taken = 0
  private readonly unsent = new WeakMap<Socket, Set<Place>>()

  constructor(private readonly limit: number) {}

  /** A place, or null when all are taken. */
  take(): Place | null {
    if (this.taken >= this.limit) return null
    this.taken += 1
    return { released: false, forget: null }
  }

  /** The request's work has produced its answer, which is about to be written to `socket`. */
  answered(place: Place, socket: Socket | null): void {
    if (place.released) return
    if (socket === null || socket.destroyed) {
      this.release(place)
      return
    }
    let places = this.unsent.get(socket)
    if (places === undefined) {
      const onThisSocket = new Set<Place>()
      places = onThisSocket
      this.unsent.set(socket, onThisSocket)
      socket.once('close', () => {
        for (const waiting of onThisSocket) this.release(waiting)
      })
    }
    places.add(place)
    const list = places
    place.forget = () => list.delete(place)
  }

  release(place: Place): void {
    if (place.released) return
    place.released = true
    this.taken -= 1
    place.forget?.()
  }
}

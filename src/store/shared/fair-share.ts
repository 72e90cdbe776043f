import type { ClaimShare } from '../outbox.js'
/** A due event a claim may take: its subscription and that subscription's subject. */
export interface ClaimCandidate {
  subscription_id: string
  subject: string
}

/** How many due events a claim of `limit` reads to choose from: enough to pass over those at their bound. */
export const candidatesFor = (limit: number) => limit * 4

/** Subscriptions and subjects at their bound: a claim passes over their events. */
export function atBound(share: ClaimShare): { subscriptions: string[]; subjects: string[] } {
  const full = (held: ReadonlyMap<string, number>, bound: number) => [...held].filter(([, count]) => count >= bound).map(([key]) => key)
  return { subscriptions: full(share.heldBySubscription, share.perSubscription), subjects: full(share.heldBySubject, share.perSubject) }
}

/**
 * Up to `limit` of the candidates, each within its subscription's and subject's bound: the
 * subject holding the fewest slots goes first, then the subscription, then the oldest event,
 * so a slot that frees goes to whoever waits with the least.
 */
export function fairShare<T extends ClaimCandidate>(candidates: readonly T[], limit: number, share: ClaimShare): T[] {
  const bySubscription = new Map(share.heldBySubscription)
  const bySubject = new Map(share.heldBySubject)
  const waiting = [...candidates]
  const chosen: T[] = []
  while (chosen.length < limit) {
    let best = -1
    let bestKey: [number, number] = [Infinity, Infinity]
    for (let index = 0; index < waiting.length; index++) {
      const candidate = waiting[index] as T
      const subject = bySubject.get(candidate.subject) ?? 0
      const subscription = bySubscription.get(candidate.subscription_id) ?? 0
      if (subject >= share.perSubject || subscription >= share.perSubscription) continue
      if (subject < bestKey[0] || (subject === bestKey[0] && subscription < bestKey[1])) {
        best = index
        bestKey = [subject, subscription]
      }
    }
    if (best === -1) break
    const [picked] = waiting.splice(best, 1) as [T]
    chosen.push(picked)
    bySubject.set(picked.subject, (bySubject.get(picked.subject) ?? 0) + 1)
    bySubscription.set(picked.subscription_id, (bySubscription.get(picked.subscription_id) ?? 0) + 1)
  }
  return chosen
}

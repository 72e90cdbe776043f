/** Whether an attempt of the event is under way (claimed, its lease not yet ended), in SQL both stores run; `now` as each writes the time. */
const underWay = (now: string) => `coalesce(leased_until > ${now}, false)`

/**
 * The SET list of a redeliver or a recover, in SQL both stores run: the event starts a new round
 * of retries, its attempts kept. One whose attempt is under way is marked to be sent once more
 * when that attempt's outcome is recorded (whichever process records it); any other is due now,
 * and a late outcome of a claim whose lease ended is no longer recorded over it.
 */
export const requeue = (now: string): string => {
  const busy = underWay(now)
  return (
    `state = 'pending', finished_at = NULL, redeliver = ${busy}, ` +
    `next_attempt_at = CASE WHEN ${busy} THEN next_attempt_at ELSE ${now} END, ` +
    `round_start = CASE WHEN ${busy} THEN round_start ELSE attempts END, ` +
    `leased_until = CASE WHEN ${busy} THEN leased_until ELSE NULL END`
  )
}

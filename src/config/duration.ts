const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `45m`, `12h`, `30d` → milliseconds; undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(text)
  if (!match) return undefined
  return Number(match[1]) * (DURATION_UNITS[match[2] as string] as number)
}

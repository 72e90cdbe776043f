import type { PlantPage } from '../store.js'

/** Pages of at most this many plants are kept: list pages as clients ask for them, not stream batches. */
export const CACHED_PAGE_ROWS = 100
const MAX_BYTES = 4 * 2 ** 20

/**
 * Recently read list pages, as the store answered them. The store empties it whenever the
 * data may have changed, so a page here is exactly what the database would answer now.
 * Bounded in bytes; the oldest page goes first.
 */
export class PageCache {
  private readonly pages = new Map<string, PlantPage>()
  private bytes = 0

  get(key: string): PlantPage | undefined {
    return this.pages.get(key)
  }

  set(key: string, page: PlantPage): void {
    if (page.json.length > MAX_BYTES || this.pages.has(key)) return
    this.pages.set(key, page)
    this.bytes += page.json.length
    for (const [oldKey, oldPage] of this.pages) {
      if (this.bytes <= MAX_BYTES) break
      this.pages.delete(oldKey)
      this.bytes -= oldPage.json.length
    }
  }

  clear(): void {
    if (this.pages.size === 0) return
    this.pages.clear()
    this.bytes = 0
  }
}

import { Superseded, call, nextLink } from './api.js'
import { field, h, keepFocus, scrollingTable, statusLine, time } from './dom.js'
import { EVENTS } from './webhooks.js'

const STATES = ['pending', 'delivered', 'failed']
/** Pages read while looking for one webhook-id: the log is kept for WEBHOOK_RETENTION only. */
const MAX_PAGES = 40

const logPath = (subscription, limit = 50) => `/webhooks/${encodeURIComponent(subscription)}/deliveries?limit=${limit}`
export const deliveryAddress = (subscription, webhookId) =>
  `#/webhooks/${encodeURIComponent(subscription)}/deliveries/${encodeURIComponent(webhookId)}`

/** Walks the log, newest first, until `found` holds for an entry. */
async function findDelivery(subscription, found, signal) {
  let path = logPath(subscription, 250)
  for (let page = 0; path !== null && page < MAX_PAGES; page++) {
    const { body, headers } = await call('GET', path, { signal })
    const match = body.find(found)
    if (match !== undefined) return match
    path = nextLink(headers)
  }
  return null
}

async function subscriptionOf(subscription, signal) {
  return (await call('GET', `/webhooks/${encodeURIComponent(subscription)}`, { signal })).body
}

/**
 * A time typed as UTC, as every time in the console is shown: a datetime-local control has no
 * zone, and `new Date()` would read its value in the browser's own.
 */
function utcInstant(value) {
  const when = new Date(`${value.length === 16 ? `${value}:00` : value}Z`)
  if (Number.isNaN(when.getTime())) throw new Error('Give a date and time, such as 2026-01-31 14:00:00.')
  return when.toISOString()
}

export async function renderDeliveries(main, subscriptionId, signal) {
  const status = statusLine()
  const table = scrollingTable('Deliveries, newest first', [
    'Webhook id',
    'Event',
    'Plant',
    'State',
    'Attempts',
    'Last status',
    'Last error',
    'Next attempt',
    'Created',
  ])
  const older = h('button', { type: 'button', class: 'secondary' }, 'Load older')
  const entries = []
  let next = logPath(subscriptionId)

  const state = field('State', { name: 'state' }, 'select', [
    h('option', { value: '' }, 'any'),
    STATES.map((value) => h('option', { value }, value)),
  ])
  const event = field('Event type', { name: 'event' }, 'select', [
    h('option', { value: '' }, 'any'),
    [...EVENTS, 'ping'].map((value) => h('option', { value }, value)),
  ])

  function show() {
    const shown = entries.filter(
      (entry) =>
        (state.control.value === '' || entry.state === state.control.value) &&
        (event.control.value === '' || entry.event === event.control.value),
    )
    table.body.replaceChildren(
      ...shown.map((entry) =>
        h(
          'tr',
          {},
          h('td', { class: 'mono' }, h('a', { href: deliveryAddress(subscriptionId, entry.id) }, entry.id)),
          h('td', {}, entry.event),
          h('td', { class: 'id' }, entry.plantId ?? ''),
          h('td', {}, entry.state),
          h('td', {}, entry.attempts),
          h('td', {}, entry.lastStatus ?? ''),
          h('td', {}, entry.lastError ?? ''),
          h('td', {}, time(entry.nextAttemptAt)),
          h('td', {}, time(entry.createdAt)),
        ),
      ),
      ...(shown.length === 0 ? [h('tr', {}, h('td', { colspan: 9 }, 'No deliveries shown.'))] : []),
    )
    older.disabled = next === null
  }

  async function loadMore() {
    if (next === null) return
    // One page at a time: a second click before the answer would load the same page twice.
    older.disabled = true
    try {
      const { body, headers } = await call('GET', next, { signal })
      entries.push(...body)
      // The API links a next page to every full one: an empty page is where the log ends.
      next = body.length === 0 ? null : nextLink(headers)
      show()
      if (body.length === 0) status.say('No older deliveries: this is the whole log.')
    } catch (error) {
      if (error instanceof Superseded) return
      status.say(error.message, 'error')
      older.disabled = false
    }
  }
  older.addEventListener('click', async () => {
    await loadMore()
    keepFocus(table.element)
  })

  const filter = h(
    'form',
    { class: 'row', onsubmit: (e) => (e.preventDefault(), show()) },
    state.element,
    event.element,
    h('button', { type: 'submit' }, 'Filter'),
  )

  const wanted = field('Webhook id', { name: 'webhook-id', required: true, autocomplete: 'off', class: 'mono' })
  const find = h(
    'form',
    {
      class: 'row',
      onsubmit: async (e) => {
        e.preventDefault()
        const id = wanted.control.value.trim()
        status.say(`Looking for ${id}…`)
        try {
          const found = await findDelivery(subscriptionId, (entry) => entry.id === id, signal)
          if (found === null) status.say(`No delivery ${id} in this subscription's log.`, 'error')
          else location.hash = deliveryAddress(subscriptionId, id)
        } catch (error) {
          if (!(error instanceof Superseded)) status.say(error.message, 'error')
        }
      },
    },
    wanted.element,
    h('button', { type: 'submit' }, 'Find'),
  )

  const since = field('Failed since (UTC)', { type: 'datetime-local', required: true, step: '1' })
  const recover = h(
    'form',
    {
      class: 'row',
      onsubmit: async (e) => {
        e.preventDefault()
        try {
          const when = utcInstant(since.control.value)
          const { body } = await call('POST', `/webhooks/${encodeURIComponent(subscriptionId)}/recover`, {
            body: JSON.stringify({ since: when }),
          })
          status.say(`${body.requeued} failed ${body.requeued === 1 ? 'event is' : 'events are'} due again.`)
        } catch (error) {
          status.say(error.message, 'error')
        }
      },
    },
    since.element,
    h('button', { type: 'submit' }, 'Recover failed events'),
  )

  let subscription
  try {
    subscription = await subscriptionOf(subscriptionId, signal)
  } catch (error) {
    if (error instanceof Superseded) return
    main.replaceChildren(
      h('h1', { tabindex: '-1' }, 'Deliveries'),
      h('p', { class: 'error' }, error.message),
      h('a', { href: '#/webhooks' }, 'All webhooks'),
    )
    return
  }
  main.replaceChildren(
    h('h1', { tabindex: '-1' }, 'Deliveries of ', h('span', { class: 'mono' }, subscription.url)),
    h('p', {}, h('a', { href: '#/webhooks' }, 'All webhooks')),
    status.element,
    h('section', { 'aria-labelledby': 'filter-heading' }, h('h2', { id: 'filter-heading' }, 'Filter'), filter),
    table.element,
    older,
    h('section', { 'aria-labelledby': 'find-heading' }, h('h2', { id: 'find-heading' }, 'Find a delivery'), find),
    h('section', { 'aria-labelledby': 'recover-heading' }, h('h2', { id: 'recover-heading' }, 'Recover'), recover),
  )
  await loadMore()
}

export async function renderDelivery(main, subscriptionId, webhookId, signal) {
  const status = statusLine()
  const back = h('p', {}, h('a', { href: `#/webhooks/${encodeURIComponent(subscriptionId)}` }, 'The deliveries log'))
  const details = h('dl', { class: 'detail' })

  async function load() {
    const entry = await findDelivery(subscriptionId, (candidate) => candidate.id === webhookId, signal)
    // Redeliver is offered only for a delivery that is there.
    redeliver.hidden = entry === null
    if (entry === null) {
      status.say(`No delivery ${webhookId} in this subscription's log.`, 'error')
      details.replaceChildren()
      return
    }
    const rows = [
      ['Webhook id', entry.id],
      ['Event', entry.event],
      ['Plant', entry.plantId ?? '—'],
      ['State', entry.state],
      ['Attempts', entry.attempts],
      ['Last status', entry.lastStatus ?? '—'],
      ['Last error', entry.lastError ?? '—'],
      ['Last attempt', entry.lastAttemptAt === null ? '—' : time(entry.lastAttemptAt)],
      ['Next attempt', entry.nextAttemptAt === null ? '—' : time(entry.nextAttemptAt)],
      ['Created', time(entry.createdAt)],
    ]
    details.replaceChildren(...rows.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]))
  }

  const redeliver = h(
    'button',
    {
      type: 'button',
      hidden: true,
      onclick: async () => {
        try {
          await call('POST', `/webhooks/${encodeURIComponent(subscriptionId)}/deliveries/${encodeURIComponent(webhookId)}/redeliver`)
          status.say('Redelivery queued: it is due now.')
          await load()
        } catch (error) {
          if (!(error instanceof Superseded)) status.say(error.message, 'error')
        }
      },
    },
    'Redeliver',
  )

  main.replaceChildren(
    h('h1', { tabindex: '-1' }, 'Delivery ', h('span', { class: 'mono' }, webhookId)),
    back,
    status.element,
    details,
    redeliver,
    h('p', {}, 'The address of this page names the delivery (and no token): share it with whoever looks after this subscription.'),
  )
  try {
    await load()
  } catch (error) {
    if (!(error instanceof Superseded)) status.say(error.message, 'error')
  }
}

import { Superseded, call } from './api.js'
import { checkbox, confirmAction, copyText, field, h, keepFocus, openDialog, scrollingTable, statusLine, time } from './dom.js'

export const EVENTS = ['newPlant', 'plantDeleted', 'plantUpdated']

const hidden = (text) => h('span', { class: 'visually-hidden' }, text)

function eventBoxes(chosen) {
  const boxes = EVENTS.map((name) => ({ name, ...checkbox(name, { checked: chosen.includes(name) }) }))
  const element = h(
    'fieldset',
    {},
    h('legend', {}, 'Events'),
    boxes.map((box) => box.element),
  )
  return { element, chosen: () => boxes.filter((box) => box.control.checked).map((box) => box.name) }
}

/** A secret is shown once, where it was made: with a button that copies it. */
function secretPanel(secret, note) {
  const value = field('Secret', { readonly: true, value: secret, class: 'mono' })
  const copied = statusLine()
  return h(
    'section',
    { class: 'secret', 'aria-labelledby': 'secret-heading' },
    h('h2', { id: 'secret-heading' }, 'New signing secret'),
    h('p', {}, note),
    value.element,
    h(
      'button',
      {
        type: 'button',
        onclick: async () => {
          await copyText(value.control)
          copied.say('Copied.')
        },
      },
      'Copy secret',
    ),
    copied.element,
  )
}

export async function renderWebhooks(main, signal) {
  const status = statusLine()
  const shown = h('div')
  const table = scrollingTable('Subscriptions', ['URL', 'Events', 'State', 'Created', 'Actions'])

  async function load() {
    try {
      const { body } = await call('GET', '/webhooks', { signal })
      table.body.replaceChildren(
        ...body.map(row),
        ...(body.length === 0 ? [h('tr', {}, h('td', { colspan: 5 }, 'No subscriptions yet.'))] : []),
      )
    } catch (error) {
      if (!(error instanceof Superseded)) status.say(error.message, 'error')
    }
  }

  const act = async (what, done) => {
    try {
      await done()
    } catch (error) {
      if (!(error instanceof Superseded)) status.say(`${what}: ${error.message}`, 'error')
    }
  }

  function row(subscription) {
    const { id, url } = subscription
    const state = subscription.enabled ? 'enabled' : `disabled${subscription.disabledReason ? `: ${subscription.disabledReason}` : ''}`
    const button = (text, onclick, kind = 'secondary') => h('button', { type: 'button', class: kind, onclick }, text, hidden(` for ${url}`))
    return h(
      'tr',
      {},
      h('td', { class: 'mono' }, url),
      h('td', {}, subscription.events.join(', ')),
      h('td', {}, state),
      h('td', {}, time(subscription.createdAt)),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'actions' },
          h('a', { href: `#/webhooks/${encodeURIComponent(id)}` }, 'Deliveries', hidden(` of ${url}`)),
          button('Change', () => change(subscription)),
          button('Ping', () =>
            act('Ping', async () => {
              const { body } = await call('POST', `/webhooks/${id}/ping`)
              status.say(`Ping sent to ${url} as ${body.id}.`)
            }),
          ),
          button('Rotate secret', () => rotate(subscription)),
          button('Unsubscribe', () => unsubscribe(subscription), 'danger'),
        ),
      ),
    )
  }

  async function change(subscription) {
    const changed = await openDialog(`Change the subscription of ${subscription.url}`, (close) => {
      const url = field('URL', { type: 'url', required: true, value: subscription.url, maxlength: '2048' })
      const events = eventBoxes(subscription.events)
      const enabled = checkbox('Enabled', { checked: subscription.enabled })
      const problem = statusLine()
      return h(
        'form',
        {
          onsubmit: async (event) => {
            event.preventDefault()
            const patch = { url: url.control.value, events: events.chosen(), enabled: enabled.control.checked }
            try {
              await call('PATCH', `/webhooks/${subscription.id}`, { body: JSON.stringify(patch), type: 'application/merge-patch+json' })
              close(true)
            } catch (error) {
              problem.say(error.message, 'error')
            }
          },
        },
        url.element,
        events.element,
        enabled.element,
        problem.element,
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'submit' }, 'Save'),
          h('button', { type: 'button', class: 'secondary', onclick: () => close(false) }, 'Cancel'),
        ),
      )
    })
    if (changed) {
      status.say(`The subscription of ${subscription.url} was changed.`)
      await load()
      keepFocus(status.element)
    }
  }

  async function rotate(subscription) {
    const sure = await confirmAction(
      'Rotate the secret?',
      `A new secret signs the deliveries to ${subscription.url}; the current one still signs beside it for the overlap period.`,
      'Rotate secret',
    )
    if (!sure) return
    await act('Rotate', async () => {
      const { body } = await call('POST', `/webhooks/${subscription.id}/rotate-secret`)
      shown.replaceChildren(
        secretPanel(
          body.secret,
          `For ${subscription.url}; shown only this once. The previous secret signs too until ${body.previousSecretExpiresAt}.`,
        ),
      )
      status.say('The secret was rotated.')
    })
  }

  async function unsubscribe(subscription) {
    const sure = await confirmAction(
      'Unsubscribe?',
      `${subscription.url} will receive no more events. This cannot be undone.`,
      'Unsubscribe',
    )
    if (!sure) return
    await act('Unsubscribe', async () => {
      await call('DELETE', `/webhooks/${subscription.id}`)
      status.say(`${subscription.url} was unsubscribed.`)
      await load()
      keepFocus(status.element)
    })
  }

  const url = field('URL', { type: 'url', required: true, maxlength: '2048', placeholder: 'https://example.com/hooks' })
  const events = eventBoxes(['newPlant'])
  const subscribe = h(
    'form',
    {
      onsubmit: async (event) => {
        event.preventDefault()
        await act('Subscribe', async () => {
          const { body } = await call('POST', '/webhooks', { body: JSON.stringify({ url: url.control.value, events: events.chosen() }) })
          shown.replaceChildren(secretPanel(body.secret, `For ${body.url}; shown only this once: keep it now to verify the signatures.`))
          status.say(`${body.url} is subscribed.`)
          subscribe.reset()
          await load()
        })
      },
    },
    url.element,
    events.element,
    h('button', { type: 'submit' }, 'Subscribe'),
  )

  main.replaceChildren(
    h('h1', { tabindex: '-1' }, 'Webhooks'),
    status.element,
    shown,
    table.element,
    h('section', { 'aria-labelledby': 'subscribe-heading' }, h('h2', { id: 'subscribe-heading' }, 'Subscribe'), subscribe),
  )
  await load()
}

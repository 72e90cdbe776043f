import { ApiError, Superseded, capabilities, session, whenSessionEnds } from './api.js'
import { field, focusHeading, h, statusLine } from './dom.js'
import { renderPlants } from './plants.js'
import { renderWebhooks } from './webhooks.js'
import { renderDeliveries, renderDelivery } from './deliveries.js'

// Views by address (the part after #): each delivery has an address of its own, which holds
// no token, so that a link can be shared.
const ROUTES = [
  [/^\/plants$/, 'plants'],
  [/^\/webhooks$/, 'webhooks'],
  [/^\/webhooks\/([^/]+)$/, 'deliveries'],
  [/^\/webhooks\/([^/]+)\/deliveries\/([^/]+)$/, 'delivery'],
]

let granted = null
/** The current navigation: leaving a view aborts what it still waits for. */
let navigation = new AbortController()

function routeOf(hash) {
  const path = hash.replace(/^#/, '') || '/plants'
  for (const [pattern, view] of ROUTES) {
    const match = pattern.exec(path)
    if (match === null) continue
    try {
      return { view, params: match.slice(1).map(decodeURIComponent) }
    } catch {
      return { view: 'missing', params: [] }
    }
  }
  return { view: 'missing', params: [] }
}

function renderNav(view) {
  const nav = document.getElementById('nav')
  nav.replaceChildren()
  if (session.token() === null || granted === null) return
  const link = (href, text, current) => h('a', { href, 'aria-current': current ? 'page' : false }, text)
  if (granted.read || granted.write) nav.append(link('#/plants', 'Plants', view === 'plants'))
  if (granted.webhooks) nav.append(link('#/webhooks', 'Webhooks', view !== 'plants' && view !== 'missing'))
  nav.append(
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          // A fresh load: nothing read with the token stays in the page's memory either.
          session.forget()
          location.replace(location.pathname)
        },
      },
      'Sign out',
    ),
  )
}

function renderSignIn(main, message) {
  const token = field('Token', { type: 'password', name: 'token', autocomplete: 'off', required: true, spellcheck: 'false' })
  const status = statusLine()
  if (message) status.say(message, 'error')
  const form = h(
    'form',
    {
      class: 'row',
      onsubmit: async (event) => {
        event.preventDefault()
        const value = token.control.value.trim()
        status.say('Signing in…')
        try {
          granted = await capabilities(value)
          session.keep(value)
          await render()
        } catch (error) {
          status.say(error instanceof ApiError ? error.message : String(error), 'error')
          token.control.focus()
        }
      },
    },
    token.element,
    h('button', { type: 'submit' }, 'Sign in'),
  )
  main.replaceChildren(
    h('h1', { tabindex: '-1' }, 'Sign in'),
    h(
      'p',
      {},
      'Sign in with a Plant Store token (pst_… or a JWT access token). It is kept in this tab only, until you sign out or close it.',
    ),
    form,
    status.element,
  )
}

/** The token was revoked or expired while signed in: back to the sign-in form, saying why. */
function endSession(message) {
  navigation.abort()
  session.forget()
  granted = null
  renderNav('missing')
  renderSignIn(document.getElementById('main'), `Your session has ended: ${message} Sign in again.`)
  focusHeading(document.getElementById('main'))
}

export async function render() {
  navigation.abort()
  navigation = new AbortController()
  const { signal } = navigation
  const main = document.getElementById('main')
  const { view, params } = routeOf(location.hash)
  if (session.token() !== null && granted === null) {
    try {
      granted = await capabilities(session.token())
    } catch (error) {
      if (error instanceof Superseded) return
      session.forget()
      renderNav(view)
      renderSignIn(main, error.message)
      return
    }
    if (signal.aborted) return
  }
  renderNav(view)
  if (session.token() === null || granted === null) {
    renderSignIn(main)
    return
  }
  // No address (just signed in, or a bare /console): the first view this token may use.
  if (location.hash === '' && !granted.read && !granted.write && granted.webhooks) {
    location.replace('#/webhooks')
    return
  }
  document.title = 'Plant Store console'
  if (view === 'plants' && (granted.read || granted.write)) await renderPlants(main, granted, signal)
  else if (view === 'webhooks' && granted.webhooks) await renderWebhooks(main, signal)
  else if (view === 'deliveries' && granted.webhooks) await renderDeliveries(main, params[0], signal)
  else if (view === 'delivery' && granted.webhooks) await renderDelivery(main, params[0], params[1], signal)
  else
    main.replaceChildren(
      h('h1', { tabindex: '-1' }, 'Nothing here'),
      h('p', {}, 'This token may not see this page, or the address is unknown.'),
    )
  if (!signal.aborted) focusHeading(main)
}

whenSessionEnds(endSession)
window.addEventListener('hashchange', () => void render())
void render()

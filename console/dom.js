// Building the page with the DOM API only: text from the API is never parsed as markup, and there is
// no inline style (the Content-Security-Policy forbids it).

let nextId = 0
export const uid = (prefix) => `${prefix}-${++nextId}`

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value)
    else if (name === 'value' || name === 'checked') element[name] = value
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue
    element.append(child instanceof Node ? child : String(child))
  }
  return element
}

/** A labelled control: the wrapper and the control. */
export function field(label, attributes = {}, tag = 'input', options = []) {
  const id = uid('field')
  const control = h(tag, { id, ...attributes }, options)
  return { element: h('div', { class: 'field' }, h('label', { for: id }, label), control), control }
}

export function checkbox(label, attributes = {}) {
  const id = uid('check')
  const control = h('input', { id, type: 'checkbox', ...attributes })
  return { element: h('div', { class: 'check' }, control, h('label', { for: id }, label)), control }
}

/** A status line read out by screen readers; `error` for failures. */
export function statusLine() {
  // Focusable by script: where the focus goes when what had it was rebuilt or removed.
  const element = h('p', { class: 'status', role: 'status', tabindex: '-1' })
  return {
    element,
    say(text, kind = 'ok') {
      element.className = kind === 'error' ? 'status error' : 'status'
      element.textContent = text
    },
  }
}

/** A table that scrolls on its own on a narrow screen, reachable by keyboard when it does. */
export function scrollingTable(caption, headings) {
  const body = h('tbody')
  const table = h(
    'table',
    {},
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((text) => h('th', { scope: 'col' }, text)),
      ),
    ),
    body,
  )
  const wrapper = h('div', { class: 'scroll', role: 'region', 'aria-label': caption, tabindex: '0' }, table)
  return { element: wrapper, body }
}

export const time = (iso) =>
  iso === null || iso === undefined ? '' : h('time', { datetime: iso }, iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'))

/**
 * A modal dialog; resolves with the value its form returns, or null when cancelled (Escape
 * included). Focus goes back to what opened it.
 */
export function openDialog(title, build) {
  const opener = document.activeElement
  const headingId = uid('dialog')
  const dialog = h('dialog', { 'aria-labelledby': headingId })
  document.body.append(dialog)
  return new Promise((resolve) => {
    const close = (value) => {
      dialog.close()
      dialog.remove()
      if (opener instanceof HTMLElement) opener.focus()
      resolve(value)
    }
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault()
      close(null)
    })
    dialog.append(h('h2', { id: headingId }, title), build(close))
    dialog.showModal()
  })
}

/** Asks before something that cannot be undone. */
export function confirmAction(title, text, action) {
  return openDialog(title, (close) =>
    h(
      'div',
      {},
      h('p', {}, text),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'danger', onclick: () => close(true) }, action),
        // Cancel takes the focus: Enter alone must not do what cannot be undone.
        h('button', { type: 'button', class: 'secondary', autofocus: true, onclick: () => close(false) }, 'Cancel'),
      ),
    ),
  )
}

/** Copies text; the clipboard API needs permission, selecting the field is the fallback. */
export async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value)
  } catch {
    input.select()
    document.execCommand('copy')
  }
}

/** Puts the focus on a view's heading, so that a screen reader announces the new view. */
export function focusHeading(root) {
  root.querySelector('h1')?.focus()
}

/** After a re-render: when the focused control was removed or disabled, focus `fallback` instead. */
export function keepFocus(fallback) {
  const active = document.activeElement
  if (active === null || active === document.body || !active.isConnected || active.disabled) fallback.focus()
}

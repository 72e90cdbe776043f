import { ApiError, Superseded, call, latestOnly } from './api.js'
import { checkbox, confirmAction, field, h, keepFocus, openDialog, scrollingTable, statusLine } from './dom.js'

// Zero is written 0: "-0" would be read as 0, and the console would name a plant that is not there.
const INT64 = /^(0|-?[1-9][0-9]*)$/
const PAGE_SIZES = ['10', '25', '50', '100']
const STALE = 'Someone else changed this plant since you read it. Reload it to see the current version, then make your change again.'

/** The view's paging state survives a re-render (after a change) but not a sign-out. `tag` null: any tag. */
const paging = { tag: null, limit: '25', after: null, earlier: [] }

const hidden = (text) => h('span', { class: 'visually-hidden' }, text)

/**
 * One plant more than a page holds: the API sends a next link for every full page, even when
 * nothing follows, so the extra plant is what says that there is a next page.
 */
function listPath() {
  const query = new URLSearchParams({ include: 'id', limit: String(Number(paging.limit) + 1) })
  if (paging.tag !== null) query.set('tag', paging.tag)
  if (paging.after !== null) query.set('after', paging.after)
  return `/plants?${query}`
}

/** A plant's current state and its ETag, read just before a change, so the change is conditional. */
async function readPlant(id, signal) {
  const { body, headers } = await call('GET', `/plants/${id}`, { signal })
  return { plant: body, etag: headers.get('etag') }
}

export async function renderPlants(main, granted, signal) {
  const status = statusLine()
  const table = scrollingTable('Plants', ['Id', 'Name', 'Tag', ...(granted.write ? ['Actions'] : [])])
  const previous = h('button', { type: 'button', class: 'secondary' }, 'Previous page')
  const next = h('button', { type: 'button', class: 'secondary' }, 'Next page')
  let nextAfter = null
  // Only the latest page asked for may render: a slower answer to an earlier click is dropped.
  const nextRequest = latestOnly(signal)

  async function load() {
    try {
      const { body } = await call('GET', listPath(), { signal: nextRequest() })
      const plants = body.slice(0, Number(paging.limit))
      nextAfter = body.length > plants.length ? plants.at(-1).id : null
      const empty = paging.earlier.length === 0 ? 'No plants here.' : 'No more plants: this page is past the last one.'
      table.body.replaceChildren(
        ...plants.map((plant) => row(plant)),
        ...(plants.length === 0 ? [h('tr', {}, h('td', { colspan: granted.write ? 4 : 3 }, empty))] : []),
      )
      previous.disabled = paging.earlier.length === 0
      next.disabled = nextAfter === null
    } catch (error) {
      if (!(error instanceof Superseded)) status.say(error.message, 'error')
    }
  }

  function row(plant) {
    const cells = [
      h('td', { class: 'id' }, plant.id),
      h('td', {}, plant.name),
      h('td', {}, plant.tag === undefined ? h('span', {}, '—', hidden('no tag')) : plant.tag === '' ? '(empty tag)' : plant.tag),
    ]
    if (granted.write) {
      cells.push(
        h(
          'td',
          {},
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', class: 'secondary', onclick: () => change(plant.id) }, 'Change', hidden(` plant ${plant.id}`)),
            h('button', { type: 'button', class: 'danger', onclick: () => remove(plant.id) }, 'Delete', hidden(` plant ${plant.id}`)),
          ),
        ),
      )
    }
    return h('tr', {}, cells)
  }

  async function change(id) {
    let current
    try {
      current = await readPlant(id, signal)
    } catch (error) {
      if (!(error instanceof Superseded)) status.say(error.message, 'error')
      return
    }
    const changed = await openDialog(`Change plant ${id}`, (close) => {
      const name = field('Name', { required: true, maxlength: '200' })
      const tag = field('Tag', { maxlength: '100' })
      const noTag = checkbox('No tag')
      const problem = statusLine()
      const fill = () => {
        name.control.value = current.plant.name
        tag.control.value = current.plant.tag ?? ''
        noTag.control.checked = current.plant.tag === undefined
      }
      fill()
      const reload = h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          hidden: true,
          onclick: async () => {
            try {
              current = await readPlant(id)
              fill()
              reload.hidden = true
              problem.say('Reloaded: this is the current version.')
              name.control.focus()
            } catch (error) {
              problem.say(error.message, 'error')
            }
          },
        },
        'Reload',
      )
      return h(
        'form',
        {
          onsubmit: async (event) => {
            event.preventDefault()
            const patch = { name: name.control.value, tag: noTag.control.checked ? null : tag.control.value }
            try {
              await call('PATCH', `/plants/${id}`, {
                body: JSON.stringify(patch),
                type: 'application/merge-patch+json',
                headers: { 'if-match': current.etag },
              })
              close(true)
            } catch (error) {
              if (error.status === 412) {
                problem.say(STALE, 'error')
                reload.hidden = false
                reload.focus()
              } else problem.say(error.message, 'error')
            }
          },
        },
        name.element,
        tag.element,
        noTag.element,
        problem.element,
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'submit' }, 'Save'),
          reload,
          h('button', { type: 'button', class: 'secondary', onclick: () => close(false) }, 'Cancel'),
        ),
      )
    })
    if (changed) {
      status.say(`Plant ${id} changed.`)
      await load()
      keepFocus(status.element)
    }
  }

  async function remove(id) {
    let current
    try {
      current = await readPlant(id, signal)
    } catch (error) {
      if (!(error instanceof Superseded)) status.say(error.message, 'error')
      return
    }
    const sure = await confirmAction(`Delete plant ${id}?`, `“${current.plant.name}” will be deleted. This cannot be undone.`, 'Delete')
    if (!sure) return
    try {
      await call('DELETE', `/plants/${id}`, { headers: { 'if-match': current.etag } })
      status.say(`Plant ${id} deleted.`)
      await load()
      keepFocus(status.element)
    } catch (error) {
      status.say(error.status === 412 ? STALE : error.message, 'error')
    }
  }

  const tag = field('Tag', { name: 'tag', value: paging.tag ?? '', maxlength: '100' })
  const emptyTag = emptyTagChoice('Only the empty tag ("")', tag.control, paging.tag === '')
  const size = field(
    'Plants per page',
    { name: 'limit' },
    'select',
    PAGE_SIZES.map((value) => h('option', { value }, value)),
  )
  size.control.value = paging.limit
  const filter = h(
    'form',
    {
      class: 'row',
      onsubmit: async (event) => {
        event.preventDefault()
        // An empty field filters nothing; the empty tag itself is asked for with its checkbox.
        const wanted = emptyTag.checked ? '' : tag.control.value === '' ? null : tag.control.value
        Object.assign(paging, { tag: wanted, limit: size.control.value, after: null, earlier: [] })
        await load()
      },
    },
    tag.element,
    emptyTag.element,
    size.element,
    h('button', { type: 'submit' }, 'Show'),
  )
  previous.addEventListener('click', async () => {
    paging.after = paging.earlier.pop() ?? null
    await load()
    keepFocus(table.element)
  })
  next.addEventListener('click', async () => {
    if (nextAfter === null) return
    paging.earlier.push(paging.after)
    paging.after = nextAfter
    // A second click before the page arrives must not skip ahead from the same cursor.
    nextAfter = null
    await load()
    keepFocus(table.element)
  })

  if (!granted.read) {
    // A write-only token may add plants but not list them.
    main.replaceChildren(
      h('h1', { tabindex: '-1' }, 'Plants'),
      h('p', {}, 'This token may add plants but not list them.'),
      status.element,
      createForm(status, async () => {}),
    )
    return
  }
  main.replaceChildren(
    h('h1', { tabindex: '-1' }, 'Plants'),
    h('p', {}, granted.write ? 'The plants this token may see, in ascending id order.' : 'The plants this token may see (read only).'),
    filter,
    status.element,
    table.element,
    h('nav', { class: 'actions', 'aria-label': 'Pages' }, previous, next),
    granted.write ? createForm(status, load) : null,
  )
  await load()
}

function createForm(status, reload) {
  const id = field('Id', { required: true, inputmode: 'numeric', autocomplete: 'off' })
  const name = field('Name', { required: true, maxlength: '200', autocomplete: 'off' })
  const tag = field('Tag (optional)', { maxlength: '100', autocomplete: 'off' })
  const emptyTag = emptyTagChoice('The empty tag ("")', tag.control, false)
  const form = h(
    'form',
    {
      class: 'row',
      onsubmit: async (event) => {
        event.preventDefault()
        const idText = id.control.value.trim()
        if (!INT64.test(idText)) {
          status.say('The id must be a whole number, such as 7.', 'error')
          id.control.focus()
          return
        }
        // The id is written as typed: a JSON number through a double would lose digits.
        // An empty field means no tag; the empty tag, a tag of its own, is chosen with its checkbox.
        const tagText = emptyTag.checked ? '' : tag.control.value === '' ? null : tag.control.value
        const tagPart = tagText === null ? '' : `,"tag":${JSON.stringify(tagText)}`
        try {
          await call('POST', '/plants', { body: `{"id":${idText},"name":${JSON.stringify(name.control.value)}${tagPart}}` })
          status.say(`Plant ${idText} added.`)
          form.reset()
          emptyTag.sync()
          await reload()
        } catch (error) {
          status.say(error instanceof ApiError ? error.message : String(error), 'error')
        }
      },
    },
    id.element,
    name.element,
    tag.element,
    emptyTag.element,
    h('button', { type: 'submit' }, 'Add plant'),
  )
  return h('section', { 'aria-labelledby': 'add-plant' }, h('h2', { id: 'add-plant' }, 'Add a plant'), form)
}

/**
 * A checkbox for the empty tag "", which the API keeps as a tag of its own: an empty text field
 * cannot say it, since there it means no tag (or, in the filter, any tag). While it is checked,
 * the text field is off.
 */
function emptyTagChoice(label, textField, checked) {
  const box = checkbox(label, { checked })
  const sync = () => {
    textField.disabled = box.control.checked
  }
  box.control.addEventListener('change', sync)
  sync()
  return {
    element: box.element,
    sync,
    get checked() {
      return box.control.checked
    },
  }
}

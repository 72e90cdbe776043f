import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { STORE_KINDS } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const SUBJECTS = ['alice', 'bob', 'carol'] as const
/** Few ids, so that subjects keep colliding on the same ones. */
const IDS = [1, 2, 3, 4, 5, 6]

type Action =
  | { op: 'create'; subject: number; id: number }
  | { op: 'get'; subject: number; id: number }
  | { op: 'delete'; subject: number; id: number }
  | { op: 'list'; subject: number }

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), subject: fc.nat(2), id: fc.constantFrom(...IDS) }),
  fc.record({ op: fc.constant('get' as const), subject: fc.nat(2), id: fc.constantFrom(...IDS) }),
  fc.record({ op: fc.constant('delete' as const), subject: fc.nat(2), id: fc.constantFrom(...IDS) }),
  fc.record({ op: fc.constant('list' as const), subject: fc.nat(2) }),
)

for (const kind of STORE_KINDS) {
  describe(`object-level authorisation under random interleavings, on ${kind}`, () => {
    let fx: ServiceFixture
    let tokens: string[]
    before(async () => {
      fx = await startFixture(kind)
      tokens = await Promise.all(SUBJECTS.map((subject) => fx.token(subject)))
    })
    after(() => fx.close())

    test("no subject ever sees or removes another's plant, and plants:admin sees the union", async () => {
      let steps = 0
      await fc.assert(
        fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (actions) => {
          for (const id of IDS) await fx.api.request('DELETE', `/plants/${id}`, { token: fx.adminToken })
          const owners = new Map<number, number>()
          const nameOf = (id: number) => `plant ${id} of ${SUBJECTS[owners.get(id) as number]}`
          const listOf = (subject: number | null) =>
            [...owners.entries()]
              .filter(([, owner]) => subject === null || owner === subject)
              .sort(([a], [b]) => a - b)
              .map(([id]) => ({ name: nameOf(id) }))

          for (const step of actions) {
            steps += 1
            const token = tokens[step.subject] as string
            if (step.op === 'create') {
              const name = `plant ${step.id} of ${SUBJECTS[step.subject]}`
              const response = await fx.api.createPlant(token, { id: step.id, name })
              if (owners.has(step.id)) {
                assert.equal(response.status, 400, `create of taken id ${step.id}`)
              } else {
                assert.equal(response.status, 200, response.text)
                owners.set(step.id, step.subject)
              }
            } else if (step.op === 'get') {
              const response = await fx.api.request('GET', `/plants/${step.id}`, { token })
              if (owners.get(step.id) === step.subject) assert.deepEqual(response.body, { name: nameOf(step.id) })
              else assert.equal(response.status, 404, `${SUBJECTS[step.subject]} reached plant ${step.id}`)
            } else if (step.op === 'delete') {
              const response = await fx.api.request('DELETE', `/plants/${step.id}`, { token })
              if (owners.get(step.id) === step.subject) {
                assert.equal(response.status, 204)
                owners.delete(step.id)
              } else {
                assert.equal(response.status, 404, `${SUBJECTS[step.subject]} removed plant ${step.id}`)
              }
            }
            // After every step, every view agrees with the model.
            for (let subject = 0; subject < SUBJECTS.length; subject++) {
              assert.deepEqual(await fx.api.listPlants(tokens[subject] as string), listOf(subject), `${SUBJECTS[subject]}'s list`)
            }
            assert.deepEqual(await fx.api.listPlants(fx.adminToken), listOf(null), 'the admin list is the union')
          }
        }),
        { numRuns: 40 },
      )
      console.log(`ownership on ${kind}: ${steps} random steps by ${SUBJECTS.length} subjects, no crossing`)
    })
  })
}

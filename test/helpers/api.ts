import assert from 'node:assert/strict'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

type Json = unknown

interface OpenApiOperation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  components?: { schemas?: Record<string, object> }
}

const COMPONENTS = 'https://plantstore.test/components'

/** A schema of the document whose references Ajv resolves among the components. */
const resolvable = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`)) as object

export interface Response<T = Json> {
  status: number
  headers: Headers
  text: string
  body: T
}

export interface RequestOptions {
  token?: string
  /** Sent as JSON with Content-Type: application/json. */
  json?: Json
  /** Sent as it is (with `headers` choosing its type): text, or bytes that need not be UTF-8. */
  raw?: string | Buffer
  headers?: Record<string, string>
}

/** How a request reaches the service: over HTTP, or injected into an app in this process. */
export type Send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
) => Promise<{ status: number; headers: Headers; text: string }>

const overHttp =
  (url: string): Send =>
  async (method, path, headers, body) => {
    const answer = await fetch(url + path, { method, headers, body })
    return { status: answer.status, headers: answer.headers, text: await answer.text() }
  }

/**
 * A client of the service that checks every answer against the served OpenAPI document:
 * the status must be one the operation declares, and the body must match its schema.
 */
export class Api {
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false })
  private readonly validators = new Map<object, ValidateFunction>()
  private readonly errorSchema: object

  private constructor(
    private readonly send: Send,
    private readonly document: OpenApiDocument,
  ) {
    // The named schemas, where the document's `#/components/schemas/…` references lead.
    this.ajv.addSchema({ $id: COMPONENTS, $defs: document.components?.schemas ?? {} })
    const errorSchema = document.paths['/plants']?.post?.responses['400']?.content?.['application/json']?.schema
    assert.ok(errorSchema, 'the document declares the Error body of POST /plants 400')
    this.errorSchema = errorSchema
  }

  /** A client of the service listening at `url`. */
  static connect(url: string): Promise<Api> {
    return Api.over(overHttp(url))
  }

  static async over(send: Send): Promise<Api> {
    const response = await send('GET', '/openapi.json', {}, undefined)
    assert.equal(response.status, 200)
    return new Api(send, JSON.parse(response.text) as OpenApiDocument)
  }

  private operationFor(method: string, path: string): OpenApiOperation | undefined {
    const pathname = path.split('?')[0] as string
    for (const [template, operations] of Object.entries(this.document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
      if (pattern.test(pathname)) return operations[method.toLowerCase()]
    }
    return undefined
  }

  private validate(schema: object, body: Json, where: string): void {
    let validator = this.validators.get(schema)
    if (!validator) {
      validator = this.ajv.compile(resolvable(schema))
      this.validators.set(schema, validator)
    }
    assert.ok(validator(body), `${where}: body does not match the OpenAPI schema: ${this.ajv.errorsText(validator.errors)}`)
  }

  /** Checks an answer against the document: declared status, matching body, JSON errors everywhere. */
  check(method: string, path: string, response: Response): void {
    const where = `${method} ${path} → ${response.status}`
    const operation = this.operationFor(method, path)
    if (response.status >= 400) {
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${where}: error content type`)
      this.validate(this.errorSchema, response.body, where)
      assert.equal((response.body as { error: number }).error, response.status, `${where}: error field is the status`)
    }
    if (operation === undefined) return
    const declared = operation.responses[String(response.status)]
    assert.ok(declared, `${where}: status not declared in the OpenAPI document`)
    if (declared.content === undefined) {
      assert.equal(response.text, '', `${where}: a response declared without content has no body`)
      return
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0] as string
    const media = declared.content[type]
    assert.ok(media, `${where}: content type ${type} is not declared`)
    if (type === 'application/json' && method !== 'HEAD') this.validate(media.schema, response.body, where)
  }

  async request<T = Json>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    let body: string | Buffer | undefined = options.raw
    if (options.json !== undefined) {
      body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json)
      headers['content-type'] ??= 'application/json'
    }
    const { status, headers: answerHeaders, text } = await this.send(method, path, headers, body)
    const isJson = /^application\/json/.test(answerHeaders.get('content-type') ?? '')
    const response = { status, headers: answerHeaders, text, body: (isJson ? JSON.parse(text) : text) as T }
    this.check(method, path, response)
    return response
  }

  /** POST /plants with a JSON text written by hand, so that ids keep every digit. */
  createPlantRaw(token: string, json: string): Promise<Response> {
    return this.request('POST', '/plants', { token, json })
  }

  createPlant(token: string, plant: { id: bigint | number; name: string; tag?: string }): Promise<Response> {
    const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`
    return this.createPlantRaw(token, `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`)
  }

  async listPlants(token: string, query = ''): Promise<{ name: string; tag?: string }[]> {
    const response = await this.request<{ name: string; tag?: string }[]>('GET', `/plants${query}`, { token })
    assert.equal(response.status, 200, response.text)
    return response.body
  }
}

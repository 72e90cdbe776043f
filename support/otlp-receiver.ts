import { once } from 'node:events'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }

/** One span as an OTLP/JSON export carries it, with its resource's attributes beside it. */
export interface ExportedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number
  attributes: Record<string, string | number | boolean>
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number
  resource: Record<string, string | number | boolean>
}

export interface ExportRequest {
  path: string
  contentType: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.boolValue !== undefined) return value.boolValue
  return value.doubleValue ?? ''
}

function attributesOf(list: { key: string; value: AnyValue }[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]))
}

interface JsonExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] }
    scopeSpans?: {
      spans?: {
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind: number
        attributes?: { key: string; value: AnyValue }[]
        status?: { code?: number }
      }[]
    }[]
  }[]
}

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1: it keeps every export request as it arrived and
 * reads the spans of the `http/json` ones. It answers 200 with an empty export response.
 */
export class OtlpReceiver {
  readonly requests: ExportRequest[] = []
  readonly spans: ExportedSpan[] = []

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer()
    const receiver = new OtlpReceiver(server)
    server.on('request', (request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        const contentType = request.headers['content-type'] ?? ''
        const body = Buffer.concat(chunks)
        receiver.requests.push({ path: request.url ?? '', contentType, headers: request.headers, body })
        if (contentType.startsWith('application/json')) receiver.spans.push(...spansOf(JSON.parse(body.toString('utf8')) as JsonExport))
        response.writeHead(200, {
          'content-type': contentType.startsWith('application/json') ? 'application/json' : 'application/x-protobuf',
        })
        response.end(contentType.startsWith('application/json') ? '{}' : undefined)
      })
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    return receiver
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** Resolves with the spans once `check` holds for them, within `timeoutMs`; else rejects. */
  async until(check: (spans: ExportedSpan[]) => boolean, timeoutMs = 10_000): Promise<ExportedSpan[]> {
    const since = Date.now()
    while (!check(this.spans)) {
      if (Date.now() - since > timeoutMs) throw new Error(`the OTLP receiver got ${this.spans.length} spans, not what was awaited`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return this.spans
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    this.server.close()
    await once(this.server, 'close')
  }
}

function spansOf(request: JsonExport): ExportedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes)
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        resource,
      })),
    )
  })
}

import { createServer } from 'node:http'

/**
 * The least a server can do for each route of the service: read the body, JSON.parse it,
 * write a fixed JSON answer. No auth, no store, no validation: the ceiling of node:http here.
 */
const plant = JSON.stringify({ name: 'Monstera', tag: 'tropical' })
const page = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ name: `plant ${i}`, tag: 'bench' })))

const server = createServer((request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    if (request.method === 'DELETE') {
      response.writeHead(204).end()
      return
    }
    let body = page
    if (request.method === 'POST' || request.method === 'PATCH') {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      body = plant
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    response.end(body)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address()
  console.log(`baseline listening at http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))

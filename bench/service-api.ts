/** The service's webhook routes as the bench calls them. */
export async function webhookCall(method: string, url: string, token: string, body?: string): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const answer = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${method} ${url} answered ${answer.status}: ${text}`)
  return text
}

/** A subscription of the token's subject to `url`, which `renew` replaces by a new one (dropping what is pending). */
export async function subscription(serviceUrl: string, token: string, url: string) {
  const make = async () =>
    (JSON.parse(await webhookCall('POST', `${serviceUrl}/webhooks`, token, JSON.stringify({ url }))) as { id: string }).id
  let id = await make()
  const drop = () => webhookCall('DELETE', `${serviceUrl}/webhooks/${id}`, token)
  return {
    drop,
    async renew() {
      await drop()
      id = await make()
    },
  }
}

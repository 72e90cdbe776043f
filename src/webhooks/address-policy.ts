import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns'
import { lookup as resolveHost } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'

/** Longest subscription URL accepted. */
export const URL_MAX_LENGTH = 2048

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number]

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED'
}

/** An IPv4-compatible IPv6 address (::/96, as ::127.0.0.1) is judged as its IPv4, as a mapped one is. */
function asIPv4IfCompatible(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() !== 'ipv6') return address
  const parts = (address as ipaddr.IPv6).parts
  if (parts.slice(0, 6).some((part) => part !== 0)) return address
  const [high = 0, low = 0] = parts.slice(6)
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

/**
 * Which addresses webhooks may reach: public unicast only (no loopback, private, link-local,
 * unique-local, CGNAT, multicast, unspecified, reserved or translated ranges, and an
 * IPv4-mapped or IPv4-compatible IPv6 address counts as its IPv4), unless it is in one of the allowed networks.
 */
export class AddressPolicy {
  constructor(private readonly allowed: readonly Network[]) {}

  permits(address: string): boolean {
    if (!ipaddr.isValid(address)) return false
    const parsed = asIPv4IfCompatible(ipaddr.process(address))
    if (this.allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return true
    return parsed.range() === 'unicast'
  }

  /** Why a subscription URL is refused, in words; null when it is acceptable. */
  async refusal(raw: string): Promise<string | null> {
    if (raw.length > URL_MAX_LENGTH) return `the url must be at most ${URL_MAX_LENGTH} characters`
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      return 'the url must be an absolute http or https URL'
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the url must be an absolute http or https URL'
    if (url.hash !== '') return 'the url must not have a fragment'
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    let addresses: string[]
    if (ipaddr.isValid(host)) addresses = [host]
    else {
      try {
        addresses = (await resolveHost(host, { all: true })).map((entry) => entry.address)
      } catch {
        return `the url's host ${host} cannot be resolved`
      }
    }
    const blocked = addresses.find((address) => !this.permits(address))
    if (blocked !== undefined) {
      // What the name resolves to is not said: it would map internal DNS for the caller.
      return `the url's host ${host} is not allowed: webhooks may not reach a loopback, private or otherwise internal address; WEBHOOK_ALLOWED_NETWORKS can allow it`
    }
    return null
  }

  /**
   * A `lookup` for outgoing connections that refuses blocked addresses after resolving: a name
   * that pointed elsewhere at registration (DNS rebinding) is checked again at connect time.
   */
  readonly lookup = (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const blocked = addresses.find((entry) => !this.permits(entry.address))
      if (blocked !== undefined) return callback(new BlockedAddressError(`${hostname} is an address webhooks may not reach`), [])
      const [first] = addresses
      if (first === undefined) return callback(new BlockedAddressError(`${hostname} has no address`), [])
      if (options.all) callback(null, addresses)
      else callback(null, first.address, first.family)
    })
  }
}

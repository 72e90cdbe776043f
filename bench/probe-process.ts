import { startProbe } from './probe.js'

/**
 * The prober in a process of its own, so that its clock and sockets do not wait behind the load
 * generator's event loop: started by `startProbeProcess` with the targets as its argument, it
 * says 'ready' once it probes, and answers a 'stop' message with its report.
 */
const probe = startProbe(JSON.parse(process.argv[2] as string) as { url: string; headers?: Record<string, string> }[])
process.send?.('ready')
process.on('message', (message) => {
  if (message !== 'stop') return
  void probe.stop().then((report) => process.send?.(report, () => process.exit(0)))
})

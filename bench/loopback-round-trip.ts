import { loopbackRoundTripUs } from './machine.js'

// Prints a loopback TCP round trip's time in this fresh process, in microseconds: the machine's
// network path, in one line.
process.stdout.write(`${(await loopbackRoundTripUs()).toFixed(1)}\n`)

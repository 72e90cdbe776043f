import { fixedLoopMs } from './machine.js'

// Prints how long the fixed loop took in this fresh process: the machine's phase, in one line.
process.stdout.write(`${fixedLoopMs().toFixed(1)}\n`)

import { register } from 'node:module'

/**
 * Loaded with `--import` (NODE_OPTIONS): records in LOADED_PACKAGES_FILE every module that an
 * ES import resolves under node_modules/@opentelemetry/, so a test can see which parts of
 * OpenTelemetry a process loaded.
 */
register('./hooks.js', import.meta.url, { data: { file: process.env.LOADED_PACKAGES_FILE } })

#!/usr/bin/env node
import { runCli } from '../cli/run-cli.js';

// `chatwire-postgres print|apply`: prints or applies chatwire's PostgreSQL schema.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});

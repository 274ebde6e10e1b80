#!/usr/bin/env node
import { processIO, runCli } from "./cli";

const code = await runCli(process.argv.slice(2), processIO());
process.exitCode = code;

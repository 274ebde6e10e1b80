#!/usr/bin/env node
// The kubesched command of a checkout, which has no build: src/bin.ts run through tsx. It is the
// workspace's bin, so `pnpm kubesched …` (no script of that name: pnpm runs the bin and prints
// nothing of its own on stdout) and `pnpm exec kubesched …` work from a fresh clone. The published
// package's bin is dist/bin.js (publishConfig.bin); this file is not published.
import { register } from "tsx/esm/api";

register();
await import("../src/bin.ts");

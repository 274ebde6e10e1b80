// Plugin packages as npm installs them, written into a temporary node_modules for tests.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface FixturePackage {
  name: string;
  version?: string;
  /** peerDependencies["@kubesched/framework"]; null: none. */
  framework?: string | null;
  /** The entry module (ESM). */
  index: string;
  kubernetes?: string;
  exports?: unknown;
}

/** Writes an ESM-only package (exports → index.js with the "import" condition only) under `nodeModules`. */
export function writePackage(nodeModules: string, p: FixturePackage): string {
  const dir = path.join(nodeModules, p.name);
  mkdirSync(dir, { recursive: true });
  const range = p.framework === undefined ? "^0.3.0" : p.framework;
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: p.name,
      version: p.version ?? "1.0.0",
      type: "module",
      exports: p.exports ?? { ".": { import: "./index.js" } },
      ...(range === null ? {} : { peerDependencies: { "@kubesched/framework": range } }),
      ...(p.kubernetes ? { kubesched: { kubernetes: p.kubernetes } } : {}),
    }),
  );
  writeFileSync(path.join(dir, "index.js"), p.index);
  return dir;
}

/** A package body: a default-exported descriptor of a plugin with a Filter that passes every node. */
export function gate(name: string): string {
  return `export default { name: ${JSON.stringify(name)}, factory: () => ({ name: () => ${JSON.stringify(name)}, filter: () => null }) };\n`;
}

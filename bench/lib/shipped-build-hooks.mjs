// The module hooks shipped-build.mjs registers: the workspace's .ts files are compiled by esbuild
// as tsup compiles them (ES2022, ESM, no keepNames) with an inline source map (profiles and stack
// traces name the .ts lines); other files go on to tsx. Registered after tsx, this load hook runs
// first; resolution stays tsx's.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

/** The compiler options of tooling/tsconfig/base.json that change esbuild's output. */
const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } };

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts") || url.includes("/node_modules/")) {
    return nextLoad(url, context);
  }
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "es2022",
    platform: "node",
    sourcemap: "inline",
    sourcefile: file,
    tsconfigRaw,
  });
  return { format: "module", source: code, shortCircuit: true };
}

// The command-line parser over the CommandSpec tree (node:util parseArgs underneath).
import { describe, expect, it } from "vitest";
import { type CommandSpec, invocationDir, parseArgs, UsageError } from "./cli";

const leaf: CommandSpec = {
  name: "simulate",
  summary: "s",
  args: [{ name: "FILE", required: false, variadic: true }],
  flags: [
    { name: "cluster", value: "FILE", repeatable: true, description: "c" },
    { name: "output", short: "o", value: "FORMAT", values: ["table", "json"], description: "o" },
    { name: "explain", description: "e" },
  ],
  run: () => 0,
};
const root: CommandSpec = {
  name: "kubesched",
  summary: "k",
  subcommands: [leaf, { name: "config", summary: "c", subcommands: [{ ...leaf, name: "validate" }] }],
};

const parse = (...argv: string[]) => parseArgs(argv, root);
const usageError = (...argv: string[]) => {
  try {
    parse(...argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error("no usage error");
};

describe("parseArgs", () => {
  it("selects the command by its words, then reads flags in every form", () => {
    const p = parse("simulate", "--cluster", "a.yaml", "--cluster=b.yaml", "-o", "json", "--explain", "x");
    expect(p.path).toEqual(["kubesched", "simulate"]);
    expect(p.lists.cluster).toEqual(["a.yaml", "b.yaml"]);
    expect(p.flags).toMatchObject({ cluster: "b.yaml", output: "json", explain: true });
    expect(p.args).toEqual(["x"]);
  });

  it("takes global flags before the command word, and nested commands", () => {
    const p = parse("--v", "3", "config", "validate", "--logging-format=json", "f.yaml");
    expect(p.path).toEqual(["kubesched", "config", "validate"]);
    expect(p.flags).toMatchObject({ v: "3", "logging-format": "json" });
    expect(p.args).toEqual(["f.yaml"]);
  });

  it("short flags take -o=json and -ojson", () => {
    expect(parse("simulate", "-o=json").flags.output).toBe("json");
    expect(parse("simulate", "-ojson").flags.output).toBe("json");
  });

  it("boolean flags take =true and =false, as kube-scheduler's", () => {
    expect(parse("simulate", "--explain=true").flags.explain).toBe(true);
    expect(parse("simulate", "--explain", "--explain=false").flags.explain).toBeUndefined();
    expect(usageError("simulate", "--explain=maybe")).toBe(
      'invalid value "maybe" for --explain: use true or false',
    );
  });

  it("--no-NAME sets a boolean flag to false; value flags have no negation", () => {
    expect(parse("simulate", "--explain", "--no-explain").lists.explain).toEqual(["true", "false"]);
    expect(parse("simulate", "--no-explain").flags.explain).toBeUndefined();
    expect(usageError("simulate", "--no-explain=true")).toBe(
      'invalid value "true" for --no-explain: use no value',
    );
    expect(usageError("simulate", "--no-cluster")).toBe("unknown flag --no-cluster");
  });

  it("-- ends the flags", () => {
    expect(parse("simulate", "--", "--explain", "-o").args).toEqual(["--explain", "-o"]);
  });

  it("usage errors say what is wrong", () => {
    expect(usageError("simulat")).toBe('unknown command "simulat" for "kubesched" (did you mean simulate?)');
    expect(usageError("config", "nope")).toBe('unknown command "nope" for "kubesched config"');
    expect(usageError("simulate", "--explian")).toBe("unknown flag --explian (did you mean --explain?)");
    expect(usageError("simulate", "--clus")).toBe("unknown flag --clus (did you mean --cluster?)");
    expect(usageError("simulate", "-x")).toBe("unknown flag -x");
    expect(usageError("simulate", "--cluster")).toBe("flag --cluster needs a value (FILE)");
    expect(usageError("simulate", "-o", "xml")).toBe(
      'invalid value "xml" for --output: use one of table, json',
    );
    expect(usageError("simulate", "-o", "json", "--output=table")).toBe("flag --output given more than once");
  });
});

// `cd examples && pnpm kubesched simulate --cluster cluster.yaml`: pnpm runs the bin from the
// project's folder; relative paths are the user's (workspace-bin.test.ts runs it through pnpm).
describe("invocationDir", () => {
  const root = "/repo";
  const underPnpm = { PNPM_PACKAGE_NAME: "kubesched-monorepo" };

  it("is the working directory when pnpm did not start us", () => {
    expect(invocationDir({ INIT_CWD: "/repo/examples", PWD: "/repo/examples" }, root, () => "/repo/x")).toBe(
      root,
    );
  });

  it("under pnpm: pnpm's own directory, else INIT_CWD, else PWD — the first at or under the project", () => {
    expect(invocationDir({ ...underPnpm, INIT_CWD: "/repo/a" }, root, () => "/repo/examples")).toBe(
      "/repo/examples",
    );
    expect(invocationDir({ ...underPnpm, INIT_CWD: "/repo/a", PWD: "/repo/b" }, root, () => undefined)).toBe(
      "/repo/a",
    );
    expect(invocationDir({ ...underPnpm, PWD: "/repo/b" }, root, () => "/elsewhere")).toBe("/repo/b");
    expect(invocationDir({ ...underPnpm, INIT_CWD: "/other", PWD: "relative" }, root, () => "/repo2")).toBe(
      root,
    );
    expect(invocationDir({ ...underPnpm }, root, () => root)).toBe(root);
  });
});

// The files of a new plugin package: the plugin template of the kubesched repository (descriptor,
// args declared once with defineArgs, a Filter and a Score extension point, table tests through
// @kubesched/testing), built with tsc to ESM with .d.ts that resolve under NodeNext and Bundler.
import type { PluginNames } from "./names";

/** The tools the package is built and tested with (the kubesched repository's versions). */
export const toolVersions = {
  typescript: "5.9.3",
  vitest: "4.1.12",
  "@types/node": "20.19.43",
  "@changesets/cli": "2.31.1",
} as const;

export interface TemplateOptions {
  names: PluginNames;
  /** The kubesched release the package is written against (its @kubesched/framework version). */
  kubeschedVersion: string;
  /** The Kubernetes minor the plugin tracks. */
  kubernetes: string;
}

function json(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

/** Relative path → content. */
export function templateFiles(o: TemplateOptions): Record<string, string> {
  const { kebab, pascal, camel, packageName } = o.names;
  const [major, minor] = o.kubeschedVersion.split(".");
  const frameworkRange = `^${major}.${minor}.0`;
  const kubesched = `^${o.kubeschedVersion}`;
  const args = `${pascal}Args`;
  return {
    "package.json": json({
      name: packageName,
      version: "0.1.0",
      description: `${pascal}: a kubesched scheduler plugin (Filter and Score).`,
      license: "Apache-2.0",
      type: "module",
      sideEffects: false,
      engines: { node: ">=20" },
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
        "./package.json": "./package.json",
      },
      files: ["dist", "README.md"],
      keywords: ["kubesched", "kubesched-plugin", "kubernetes", "scheduler"],
      kubesched: { kubernetes: o.kubernetes },
      scripts: {
        build: "tsc -p tsconfig.build.json",
        typecheck: "tsc --noEmit",
        test: "vitest run",
        prepublishOnly: "npm run build",
        changeset: "changeset",
      },
      // The framework versions the plugin supports: kubesched refuses to load it into another.
      peerDependencies: { "@kubesched/framework": frameworkRange },
      dependencies: { "@kubesched/api": kubesched },
      devDependencies: {
        "@changesets/cli": `^${toolVersions["@changesets/cli"]}`,
        "@kubesched/framework": kubesched,
        "@kubesched/testing": kubesched,
        "@types/node": `^${toolVersions["@types/node"]}`,
        typescript: `^${toolVersions.typescript}`,
        vitest: `^${toolVersions.vitest}`,
      },
    }),
    "tsconfig.json": json({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        declaration: true,
        sourceMap: true,
        rootDir: "src",
        outDir: "dist",
      },
      include: ["src"],
    }),
    "tsconfig.build.json": json({
      extends: "./tsconfig.json",
      exclude: ["src/**/*.test.ts"],
    }),
    ".gitignore": "node_modules/\ndist/\n",
    ".changeset/config.json": json({
      $schema: "https://unpkg.com/@changesets/config@3.1.1/schema.json",
      changelog: "@changesets/cli/changelog",
      commit: false,
      access: "public",
      baseBranch: "main",
      updateInternalDependencies: "patch",
      ignore: [],
    }),
    ".changeset/README.md": `# Changesets

Every change users should hear about carries a changeset: \`npm run changeset\`, pick the bump
(patch: a fix; minor: a feature, or in 0.x a breaking change), describe it for users. To release:
\`npx changeset version\` (bumps package.json, writes CHANGELOG.md), then \`npm publish\`.
`,
    "src/args.ts": `// ${args}: one declaration gives the TypeScript type, strict decoding with field paths, the
// defaults and the JSON Schema (defineArgs over TypeBox); validate adds the rules a schema cannot
// state, with Kubernetes-style field errors.
import { defineArgs, type FieldError, fieldErrors, fieldPath, type Static, Type } from "@kubesched/framework";

const schema = Type.Object({
  label: Type.String({ default: "example.com/gate", description: "The node label that is the gate." }),
  open: Type.Array(Type.String(), {
    default: ["open"],
    description: "Values of the label that let pods through.",
  }),
  preferred: Type.String({
    default: "",
    description: "Nodes whose label has this value score 100, the others 0 (empty: no preference).",
  }),
});

export type ${args} = Static<typeof schema>;

/** Every problem of the args, with its field path under \`path\`. */
export function validate${args}(args: ${args}, path = ""): FieldError[] {
  const errors: FieldError[] = [];
  if (args.label === "") errors.push(fieldErrors.required(fieldPath.child(path, "label")));
  const open = fieldPath.child(path, "open");
  if (args.open.length === 0) errors.push(fieldErrors.required(open, "at least one value"));
  args.open.forEach((v, i) => {
    if (v === "") errors.push(fieldErrors.invalid(fieldPath.index(open, i), v, "must not be empty"));
  });
  if (args.preferred !== "" && !args.open.includes(args.preferred)) {
    errors.push(fieldErrors.invalid(fieldPath.child(path, "preferred"), args.preferred, "must be one of open"));
  }
  return errors;
}

export const ${camel}Args = defineArgs({
  kind: "${args}",
  schema,
  validate: (args, path) => validate${args}(args, path),
});
`,
    [`src/${kebab}.ts`]: `// The ${pascal} plugin: a Filter that lets pods onto nodes whose gate label is open, and a
// Score that prefers one value of it.
import type { Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  type EnqueueExtensions,
  EventResource,
  type FilterPlugin,
  MaxNodeScore,
  type NodeInfo,
  type ScoreExtensions,
  type ScorePlugin,
  Status,
} from "@kubesched/framework";
import type { ${args} } from "./args.js";

export const name = "${pascal}";

/** The Filter's reason, as kubesched prints it in "0/3 nodes are available: ...". */
export const ErrReasonClosed = "node(s) had a closed gate";

export class ${pascal} implements FilterPlugin, ScorePlugin, EnqueueExtensions {
  constructor(readonly args: ${args}) {}

  name(): string {
    return name;
  }

  filter(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    const value = nodeInfo.node?.metadata?.labels?.[this.args.label];
    if (value !== undefined && this.args.open.includes(value)) return null;
    // Preemption cannot open a gate: UnschedulableAndUnresolvable.
    return new Status(Code.UnschedulableAndUnresolvable, ErrReasonClosed);
  }

  score(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    const preferred = this.args.preferred;
    return preferred !== "" && nodeInfo.node?.metadata?.labels?.[this.args.label] === preferred ? MaxNodeScore : 0;
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // A node added or relabelled may open the gate for a pod this plugin rejected.
    return [{ event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel } }];
  }
}
`,
    "src/index.ts": `// ${packageName}: the ${pascal} scheduler plugin for kubesched.
import { definePlugin } from "@kubesched/framework";
import { type ${args}, ${camel}Args } from "./args.js";
import { ${pascal}, name } from "./${kebab}.js";

export { type ${args}, ${camel}Args, validate${args} } from "./args.js";
export { ${pascal}, ErrReasonClosed, name } from "./${kebab}.js";

/** The ${pascal} plugin with its ${args}. */
export const ${camel}Plugin = definePlugin<${args}>({
  name,
  args: ${camel}Args,
  factory: (args) => new ${pascal}(args),
});

/** What \`kubesched --plugin ${packageName}\` loads: one descriptor (or a list). */
export default ${camel}Plugin;
`,
    [`src/${kebab}.test.ts`]: `// ${pascal} through the real framework runtime (@kubesched/testing's harness runs the plugin in
// kube-scheduler's call order: PreFilter → Filter; PreScore → Score → NormalizeScore).
import { defaultFeatures, formatFieldErrors } from "@kubesched/framework";
import { createPluginHarness, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import ${camel}Plugin, { ${camel}Args, ErrReasonClosed } from "./index.js";

const nodes = [
  makeNode().name("open-a").label("example.com/gate", "open").obj(),
  makeNode().name("ajar-b").label("example.com/gate", "ajar").obj(),
  makeNode().name("none-c").label("zone", "z1").obj(),
];
const pod = makePod().name("p").obj();

describe("${pascal} Filter", () => {
  const cases: { name: string; args?: unknown; want: Record<string, string | null> }[] = [
    {
      name: "with the default args only nodes whose gate is open pass",
      want: { "open-a": null, "ajar-b": ErrReasonClosed, "none-c": ErrReasonClosed },
    },
    {
      name: "more open values let more nodes through",
      args: { open: ["open", "ajar"] },
      want: { "open-a": null, "ajar-b": null, "none-c": ErrReasonClosed },
    },
    {
      name: "another label is another gate",
      args: { label: "zone", open: ["z1"] },
      want: { "open-a": ErrReasonClosed, "ajar-b": ErrReasonClosed, "none-c": null },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: ${camel}Plugin, args: tc.args, nodes });
      const { statuses } = h.filter(pod);
      const got = Object.fromEntries([...statuses].map(([node, s]) => [node, s?.getReasons()[0] ?? null]));
      expect(got).toEqual(tc.want);
    });
  }
});

describe("${pascal} Score", () => {
  const cases: { name: string; args?: unknown; want: Record<string, number> }[] = [
    { name: "no preference scores every node 0", want: { "open-a": 0, "ajar-b": 0 } },
    {
      name: "the preferred value scores 100",
      args: { open: ["open", "ajar"], preferred: "ajar" },
      want: { "open-a": 0, "ajar-b": 100 },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await createPluginHarness({ plugin: ${camel}Plugin, args: tc.args, nodes });
      const { status, scores } = h.score(pod, ["open-a", "ajar-b"]);
      expect(status).toBeNull();
      expect(Object.fromEntries(scores.map((s) => [s.name, s.score]))).toEqual(tc.want);
    });
  }
});

describe("${args}", () => {
  it("defaults", () => {
    expect(${camel}Args.decode(undefined, "args", defaultFeatures)).toEqual({
      args: { label: "example.com/gate", open: ["open"], preferred: "" },
      errors: [],
    });
  });

  it("decodes strictly: wrong types and unknown fields are errors with their field paths", () => {
    const { errors } = ${camel}Args.decode({ label: 3, opne: ["x"] }, "args", defaultFeatures);
    expect(formatFieldErrors(errors)).toBe(
      "args.label: Invalid value: 3: must be a string, got number\\nargs.opne: unknown field",
    );
  });

  it("validates", () => {
    const args = { label: "", open: ["open", ""], preferred: "ajar" };
    expect(formatFieldErrors(${camel}Args.validate(args, "args", defaultFeatures))).toBe(
      [
        "args.label: Required value",
        'args.open[1]: Invalid value: "": must not be empty',
        'args.preferred: Invalid value: "ajar": must be one of open',
      ].join("\\n"),
    );
  });

  it("has a JSON Schema for editors", () => {
    expect(${camel}Args.schema).toMatchObject({
      properties: { kind: { const: "${args}" }, label: { type: "string", default: "example.com/gate" } },
      additionalProperties: false,
    });
  });
});
`,
    "README.md": `# ${packageName}

**${pascal}**: a [kubesched](https://www.npmjs.com/package/@kubesched/cli) scheduler plugin. Its
Filter lets pods onto the nodes whose gate label (\`example.com/gate\`) has an open value; its
Score gives the nodes with a preferred value 100.

Tracks Kubernetes **${o.kubernetes}** (\`"kubesched": {"kubernetes": "${o.kubernetes}"}\`); built for
\`@kubesched/framework\` ${frameworkRange} (its peer dependency: kubesched refuses to load it into
another framework). ESM-only.

## Use it

\`\`\`sh
npm install @kubesched/cli ${packageName}
npx kubesched simulate --plugin ${packageName} --config sched.yaml --cluster cluster.yaml
\`\`\`

\`\`\`yaml
# sched.yaml: a KubeSchedulerConfiguration, as kube-scheduler takes it
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      multiPoint:
        enabled:
          - name: ${pascal}
    pluginConfig:
      - name: ${pascal}
        args:
          open: [open, ajar]
          preferred: open
\`\`\`

\`kubesched plugins --plugin ${packageName}\` shows what kubesched loaded (version, extension
points, args schema).

## Extension points

| Point             | Behaviour                                                                         |
| ----------------- | --------------------------------------------------------------------------------- |
| Filter            | \`UnschedulableAndUnresolvable\` (\`${"node(s) had a closed gate"}\`) unless the node's label is open |
| Score             | 100 for nodes whose label is \`preferred\`, 0 for the others                        |
| EnqueueExtensions | Node \`Add\` and \`UpdateNodeLabel\` requeue the pods it rejected                     |

## Args (\`${args}\`)

| field       | type     | default            | rule                         |
| ----------- | -------- | ------------------ | ---------------------------- |
| \`label\`     | string   | \`example.com/gate\` | required                     |
| \`open\`      | string[] | \`[open]\`           | at least one, none empty     |
| \`preferred\` | string   | \`""\` (none)        | empty or one of \`open\`       |

## Develop

\`\`\`sh
npm install
npm run build     # tsc → dist/ (ESM and .d.ts)
npm test          # vitest: table tests through @kubesched/testing's harness
\`\`\`

## Release

Describe each change with \`npm run changeset\`; \`npx changeset version\` bumps the version and
writes CHANGELOG.md; \`npm publish\` builds and publishes. When a new @kubesched/framework minor
comes out, test against it and widen the peer range (\`${frameworkRange} || ^0.N.0\`).
`,
  };
}

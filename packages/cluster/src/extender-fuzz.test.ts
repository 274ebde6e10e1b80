// A fuzz of extender responses through simulate(): one verb (filter, prioritize, preempt or bind)
// answers a random body (any JSON, near-valid v1 shapes with wrong types, numbers beyond int64 or
// float64, duplicate and case-folded keys, deep nesting, long strings, bytes that are not JSON)
// with a random status; the others answer well. Whatever comes back, the simulation finishes, every
// pod has an outcome, an Error names the extender, scores stay integers, and messages and log
// lines stay short.
import { loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answer200,
  type ExtenderServer,
  nodeYAML,
  preemptionYAML,
  startExtenderServer,
} from "./extender-server.test-util";
import { loadSnapshotTexts } from "./load";
import { simulate } from "./simulate";

type Verb = "filter" | "prioritize" | "preempt" | "bind";

let server: ExtenderServer;
/** The current case: the verb that misbehaves and what it answers. */
let fuzzed: { verb: Verb; status: number; body: string } = { verb: "filter", status: 200, body: "" };

/** Well-formed answers for the verbs not under test. */
function wellFormed(verb: string, args: Record<string, unknown>): unknown {
  if (verb === "filter") return { NodeNames: args.nodenames };
  if (verb === "prioritize") return (args.nodenames as string[]).map((Host) => ({ Host, Score: 1 }));
  if (verb === "preempt") return { NodeNameToMetaVictims: args.nodeNameToMetaVictims };
  return {};
}

beforeAll(async () => {
  server = await startExtenderServer((verb, args, res) => {
    if (verb !== fuzzed.verb) return answer200(res, JSON.stringify(wellFormed(verb, args)));
    res.writeHead(fuzzed.status, { "Content-Type": "application/json" });
    res.end(fuzzed.body);
  });
});
afterAll(() => server.close());

// n1 and n3 are free; n2 is full of a low-priority pod. "small" fits n1 and n3 (filter,
// prioritize, bind); "urgent" must go to n2 and can only preempt there (preempt).
const snapshot = `${nodeYAML("n1", "4")}${nodeYAML("n3", "4")}${preemptionYAML}---
apiVersion: v1
kind: Pod
metadata: { name: small }
spec: { containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }] }
`;

// ---------------------------------------------------------------------------------------------
// Bodies, as text (numbers are written as literals JSON.stringify could not produce).

const numberLiteral = fc.oneof(
  fc.constantFrom("1e999", "-1e308", "1.5", "1.0", "1E2", "-0", "9223372036854775807", "9223372036854775808"),
  fc.constantFrom("-9223372036854775809", "10", "0", "123456789012345678901234567890"),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);
const leaf = fc.oneof(
  numberLiteral,
  fc.constantFrom("null", "true", "false", '""', "[]", "{}", '"1e999"', '"5"'),
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.nat({ max: 300_000 }).map((n) => JSON.stringify("s".repeat(n))),
);
const nodeName = fc.oneof(fc.constantFrom("n1", "n2", "n3", ""), fc.string({ maxLength: 8 }));
const key = (names: string[]) =>
  fc.oneof(
    fc
      .constantFrom(...names)
      .chain((n) => fc.constantFrom(n, n.toLowerCase(), n.toUpperCase(), n.replace(/s/g, "ſ"))),
    fc.string({ maxLength: 8 }),
  );
const object = (entries: fc.Arbitrary<[string, string]>) =>
  fc
    .array(entries, { maxLength: 6 })
    .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
const array = (item: fc.Arbitrary<string>) =>
  fc.array(item, { maxLength: 6 }).map((items) => `[${items.join(",")}]`);
const orLeaf = (a: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: a }, { weight: 1, arbitrary: leaf });

const shapes: Record<Verb, fc.Arbitrary<string>> = {
  filter: object(
    fc.tuple(
      key(["NodeNames", "Nodes", "FailedNodes", "FailedAndUnresolvableNodes", "Error"]),
      fc.oneof(
        orLeaf(array(orLeaf(nodeName.map((n) => JSON.stringify(n))))),
        orLeaf(object(fc.tuple(nodeName, leaf))),
        orLeaf(
          object(
            fc.tuple(
              fc.constant("items"),
              array(orLeaf(nodeName.map((n) => `{"metadata":{"name":${JSON.stringify(n)}}}`))),
            ),
          ),
        ),
      ),
    ),
  ),
  prioritize: orLeaf(
    array(orLeaf(object(fc.tuple(key(["Host", "Score"]), orLeaf(nodeName.map((n) => JSON.stringify(n))))))),
  ),
  preempt: object(
    fc.tuple(
      key(["NodeNameToMetaVictims"]),
      orLeaf(
        object(
          fc.tuple(
            nodeName,
            orLeaf(
              object(
                fc.tuple(
                  key(["Pods", "NumPDBViolations"]),
                  orLeaf(array(orLeaf(object(fc.tuple(key(["UID"]), orLeaf(fc.constant('"low-uid"'))))))),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  ),
  bind: object(fc.tuple(key(["Error"]), leaf)),
};

const garbage = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.nat({ max: 12_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
  fc.nat({ max: 12_000 }).map((n) => `{"Error":"deep","x":${"[".repeat(n)}${"]".repeat(n)}}`),
);

const fuzzCase = fc.constantFrom<Verb>("filter", "prioritize", "preempt", "bind").chain((verb) =>
  fc.record({
    verb: fc.constant(verb),
    status: fc.oneof(
      { weight: 8, arbitrary: fc.constant(200) },
      { weight: 1, arbitrary: fc.constantFrom(204, 404, 500) },
    ),
    body: fc.oneof(
      { weight: 3, arbitrary: shapes[verb] },
      { weight: 1, arbitrary: garbage },
      // Cut short anywhere.
      {
        weight: 1,
        arbitrary: fc.tuple(shapes[verb], fc.nat()).map(([b, n]) => b.slice(0, n % (b.length + 1))),
      },
    ),
  }),
);

describe("extender responses fuzz (simulate)", () => {
  const config = () =>
    loadConfig(
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
  - urlPrefix: ${server.url}
    filterVerb: filter
    prioritizeVerb: prioritize
    weight: 3
    preemptVerb: preempt
    bindVerb: bind
    nodeCacheCapable: true
    httpTimeout: 2s
`,
      { registry: inTreeRegistry },
    );

  it("never crashes the scheduler and always gives a clear outcome", async () => {
    const objects = loadSnapshotTexts([{ name: "c.yaml", text: snapshot }]).objects;
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        fuzzed = c;
        const logger = recordingLogger();
        const r = await simulate({
          config: config(),
          registry: inTreeRegistry,
          objects,
          logger,
          explain: true,
        });
        expect(r.pods.map((p) => p.name).sort()).toEqual(["small", "urgent"]);
        for (const p of r.pods) {
          expect(["Scheduled", "Unschedulable", "Error"]).toContain(p.outcome);
          if (p.outcome === "Scheduled") continue;
          expect(p.message).toEqual(expect.any(String));
          expect(p.message?.length).toBeGreaterThan(0);
          expect(p.message?.length).toBeLessThan(16 * 1024);
          if (p.outcome === "Error") expect(p.message).toContain(`${server.url}/${c.verb}`);
          for (const v of Object.values(p.explain?.finalScore ?? {}))
            expect(Number.isSafeInteger(v)).toBe(true);
        }
        expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
        for (const e of logger.entries) {
          const line = JSON.stringify(e, (_k, v: unknown) => (v instanceof Error ? v.message : v));
          expect(line.length).toBeLessThan(16 * 1024);
        }
      }),
      { numRuns: 120 },
    );
  }, 240_000);
});

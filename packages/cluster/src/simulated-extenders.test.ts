// simulate() with a KubeSchedulerConfiguration that has an extender, against a real HTTP server
// on 127.0.0.1: what an unresponsive, oversized or ill-typed extender does to a simulation (the
// scheduler is built as production builds it; only the server misbehaves).
import diagnosticsChannel from "node:diagnostics_channel";
import type { ClientRequest, ServerResponse } from "node:http";
import { loadConfig } from "@kubesched/config";
import { type Extender, ManualClock, NodeInfo } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { ExtenderError } from "@kubesched/scheduler";
import { makePod, type RecordingLogger, recordingLogger } from "@kubesched/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  answer200,
  type ExtenderServer,
  nodeYAML,
  preemptionYAML,
  startExtenderServer,
} from "./extender-server.test-util";
import { InMemoryCluster } from "./in-memory-cluster";
import { loadSnapshotTexts } from "./load";
import { type SimulationResult, simulate } from "./simulate";
import { extenderRetryLimitMs, simulatedExtender } from "./simulated-extenders";

type Handler = (args: Record<string, unknown>, res: ServerResponse) => void;

let server: ExtenderServer;
let base = "";
/** How each verb answers in the current test (404 for the others). */
const handlers = new Map<string, Handler>();

const json = (res: ServerResponse, value: unknown) => answer200(res, JSON.stringify(value));
const raw =
  (text: string): Handler =>
  (_args, res) =>
    answer200(res, text);
/** Every node passes (nodeCacheCapable). */
const passAll: Handler = (args, res) => json(res, { nodenames: args.nodenames });

beforeAll(async () => {
  server = await startExtenderServer((verb, args, res) => {
    const h = handlers.get(verb);
    if (h) return h(args, res);
    res.writeHead(404);
    res.end();
  });
  base = server.url;
});
afterAll(() => server.close());
beforeEach(() => {
  handlers.clear();
  server.calls.length = 0;
});

const snapshot = `${nodeYAML("n1", "4")}${nodeYAML("n2", "4")}apiVersion: v1
kind: Pod
metadata: { name: p }
spec: { containers: [{ name: c, image: i, resources: { requests: { cpu: "1" } } }] }
`;

async function run(
  extender: string,
  opts: { yaml?: string; logger?: RecordingLogger; explain?: boolean } = {},
): Promise<SimulationResult> {
  const config = loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
  - urlPrefix: ${base}
    nodeCacheCapable: true
${extender
  .split("\n")
  .map((l) => `    ${l}`)
  .join("\n")}`,
    { registry: inTreeRegistry },
  );
  return simulate({
    config,
    registry: inTreeRegistry,
    objects: loadSnapshotTexts([{ name: "c.yaml", text: opts.yaml ?? snapshot }]).objects,
    logger: opts.logger ?? recordingLogger(),
    explain: opts.explain ?? false,
  });
}

describe("simulate: an extender that does not answer in time", () => {
  it("ends the pod's retries on the simulated clock with an Error naming the extender, its URL and both limits", async () => {
    handlers.set("filter", () => {
      // never answers
    });
    // The calls are counted where the scheduler makes them: node:http publishes each request on
    // this channel in the tick it is created, before its 20 ms timer can fire. The server may
    // never see a call whose client gave up first (a loaded machine runs the timer before the
    // connection's I/O), so its count would depend on wall-clock time.
    // Each call also holds the event loop for 40 ms here, past the 20 ms httpTimeout, as a loaded
    // machine can: the server then sees none of the calls, and what is asserted must not change.
    const posts: string[] = [];
    const onStart = (m: unknown) => {
      const req = (m as { request: ClientRequest }).request;
      if (`${req.protocol}//${String(req.getHeader("host"))}${req.path}` !== `${base}/filter`) return;
      posts.push(req.method);
      const late = performance.now() + 40;
      while (performance.now() < late);
    };
    diagnosticsChannel.subscribe("http.client.request.start", onStart);
    let r: SimulationResult;
    try {
      r = await run("filterVerb: filter\nhttpTimeout: 20ms");
    } finally {
      diagnosticsChannel.unsubscribe("http.client.request.start", onStart);
    }
    const p = r.pods[0];
    // Each attempt waited 20 ms of real time; backoffs (1, 2, 4, 8 s) and the timeouts passed
    // on the simulated clock, until 30 s after the first failure.
    expect(p?.outcome).toBe("Error");
    expect(p?.message).toBe(
      `extender "${base}": POST ${base}/filter: no complete response within httpTimeout 20ms; simulate stopped retrying the pod after 7 attempts failing on extender "${base}" (${base}/filter) for 41s of simulated time (the limit is 30s)`,
    );
    expect(p?.attempts).toBe(7);
    expect(posts).toEqual(Array(7).fill("POST"));
    expect(r.summary.error).toBe(1);
    expect(extenderRetryLimitMs).toBe(30_000);
  });

  it("every pending pod gets its own bounded retries", async () => {
    handlers.set("filter", () => {
      // never answers
    });
    const more = `${snapshot}---
apiVersion: v1
kind: Pod
metadata: { name: q }
spec: { containers: [{ name: c, image: i }] }
`;
    const r = await run("filterVerb: filter\nhttpTimeout: 20ms", { yaml: more });
    expect(r.pods.map((p) => [p.name, p.outcome])).toEqual([
      ["p", "Error"],
      ["q", "Error"],
    ]);
    expect(server.calls.length).toBeLessThanOrEqual(2 * 7);
  });

  it("an ignorable extender that does not answer is skipped: the pod is scheduled", async () => {
    handlers.set("filter", () => {
      // never answers
    });
    const r = await run("filterVerb: filter\nhttpTimeout: 20ms\nignorable: true");
    expect(r.pods[0]?.outcome).toBe("Scheduled");
  });
});

describe("simulate: an extender that fails every attempt", () => {
  it("a 500 answer: Error after the retry limit, the message names the URL", async () => {
    handlers.set("filter", (_b, res) => {
      res.writeHead(500);
      res.end("boom");
    });
    const r = await run("filterVerb: filter");
    expect(r.pods[0]?.outcome).toBe("Error");
    expect(r.pods[0]?.message).toBe(
      `failed filter with extender at URL ${base}/filter, code 500; simulate stopped retrying the pod after 7 attempts failing on extender "${base}" (${base}/filter) for 41s of simulated time (the limit is 30s)`,
    );
  });

  it("a 20 MB error field: refused by the size limit; nothing large is kept or logged", async () => {
    const body = Buffer.from(JSON.stringify({ error: "x".repeat(20 * 1024 * 1024) }));
    handlers.set("filter", (_args, res) => answer200(res, body));
    const logger = recordingLogger();
    const r = await run("filterVerb: filter", { logger });
    expect(r.pods[0]?.outcome).toBe("Error");
    expect(r.pods[0]?.message).toMatch(
      new RegExp(
        `^extender "${base}": POST ${base}/filter: the response exceeds \\d+ bytes \\(the request's \\d+ bytes plus 16 MiB\\); simulate stopped retrying`,
      ),
    );
    for (const e of logger.entries) expect(JSON.stringify(e).length).toBeLessThan(8 * 1024);
  });

  it("a 1 MB error field under the limit is cut to 1024 characters in the message and the logs", async () => {
    handlers.set("filter", (_b, res) =>
      json(res, { error: `${"e".repeat(1024)}${"f".repeat(1024 * 1024)}` }),
    );
    const logger = recordingLogger();
    const r = await run("filterVerb: filter", { logger });
    expect(r.pods[0]?.message).toBe(
      `${"e".repeat(1024)}... (1048576 more characters); simulate stopped retrying the pod after 7 attempts failing on extender "${base}" (${base}/filter) for 41s of simulated time (the limit is 30s)`,
    );
    // One line per distinct error, then once more with how often it repeated (7 attempts).
    const logged = logger.entries.filter((e) => e.msg === "Error scheduling pod; retrying");
    expect(logged.map((e) => e.fields.repeated)).toEqual([undefined, 6]);
    for (const e of logger.entries) expect(JSON.stringify(e).length).toBeLessThan(8 * 1024);
  });
});

describe("simulate: extender responses decoded as upstream's Go client decodes them", () => {
  it('scores "1e999", 1e999, -1e308 are decode errors: that extender gives no score, final scores stay integers', async () => {
    for (const score of ['"1e999"', "1e999", "-1e308", "null"]) {
      handlers.set("filter", passAll);
      handlers.set("prioritize", raw(`[{"host":"n1","score":${score}},{"host":"n2","score":0}]`));
      const logger = recordingLogger();
      const r = await run("filterVerb: filter\nprioritizeVerb: prioritize\nweight: 5", {
        explain: true,
        logger,
      });
      expect(r.pods[0]?.outcome).toBe("Scheduled");
      const finalScore = r.pods[0]?.explain?.finalScore ?? {};
      expect(Object.keys(finalScore).sort()).toEqual(["n1", "n2"]);
      for (const v of Object.values(finalScore)) expect(Number.isSafeInteger(v)).toBe(true);
      // null is 0: both nodes get the same extender score; the others make n1 and n2 equal.
      expect(finalScore.n1).toBe(finalScore.n2);
      expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
      const ignored = logger.entries.filter((e) =>
        e.msg.startsWith("Failed to run extender's priority function"),
      );
      expect(ignored.map((e) => String((e.fields.err as Error).message))).toEqual(
        score === "null"
          ? []
          : [
              `extender "${base}": POST ${base}/prioritize: decoding the response: json: cannot unmarshal ${score.startsWith('"') ? "string" : `number ${score}`} into Go struct field HostPriority.Score of type int64`,
            ],
      );
    }
  });

  const wrongTypes: { verb: string; answer: string; goMessage: string }[] = [
    {
      verb: "filter",
      answer: '{"nodenames":["n1"],"failedNodes":{"n2":{"why":"busy"}}}',
      goMessage:
        "json: cannot unmarshal object into Go struct field ExtenderFilterResult.FailedNodes of type string",
    },
    {
      verb: "bind",
      answer: '{"error":["no"]}',
      goMessage:
        "json: cannot unmarshal array into Go struct field ExtenderBindingResult.Error of type string",
    },
  ];
  for (const tc of wrongTypes) {
    it(`a ${tc.verb} answer of the wrong type: Error naming the extender, with Go's message`, async () => {
      handlers.set(tc.verb, raw(tc.answer));
      const r = await run(`${tc.verb}Verb: ${tc.verb}`);
      expect(r.pods[0]?.outcome).toBe("Error");
      expect(r.pods[0]?.message).toMatch(
        `extender "${base}": POST ${base}/${tc.verb}: decoding the response: ${tc.goMessage}; simulate stopped retrying`,
      );
    });
  }

  it("a binder extender's binding is the pod's binding in the simulated cluster", async () => {
    const bound: unknown[] = [];
    handlers.set("bind", (body, res) => {
      bound.push(body);
      json(res, {});
    });
    const r = await run("bindVerb: bind");
    expect(r.pods[0]).toMatchObject({
      outcome: "Scheduled",
      node: expect.stringMatching(/^n[12]$/),
      attempts: 1,
    });
    expect(bound).toEqual([
      { podName: "p", podNamespace: "default", podUID: expect.any(String), node: r.pods[0]?.node },
    ]);
  });

  it("a preempt answer of the wrong type: preemption fails with the extender's error, the pod is Unschedulable", async () => {
    handlers.set("filter", passAll);
    handlers.set("preempt", raw('{"nodeNameToMetaVictims":{"n1":{"pods":[{"uid":7}]}}}'));
    const r = await run("filterVerb: filter\npreemptVerb: preempt", { yaml: preemptionYAML });
    expect(server.calls).toContain("preempt");
    expect(r.pods[0]?.outcome).toBe("Unschedulable");
    expect(r.pods[0]?.message).toContain(
      `extender "${base}": POST ${base}/preempt: decoding the response: json: cannot unmarshal number into Go struct field MetaPod.NodeNameToMetaVictims.Pods.UID of type string`,
    );
  });
});

describe("simulatedExtender", () => {
  const failing = (err: Error): Extender => ({
    name: () => "e",
    isIgnorable: () => true,
    isInterested: () => true,
    isFilter: () => true,
    isPrioritizer: () => false,
    isBinder: () => false,
    supportsPreemption: () => false,
    filter: () => Promise.reject(err),
    prioritize: () => Promise.reject(err),
    bind: () => Promise.reject(err),
    processPreemption: () => Promise.reject(err),
  });

  it("a call that timed out advances the simulated clock by its httpTimeout, firing the timers due", async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 3000);
    const e = simulatedExtender(
      failing(new ExtenderError("timed out", "e", "e/filter", 5000)),
      clock,
      new InMemoryCluster(clock).client(),
    );
    expect([e.name(), e.isIgnorable(), e.isFilter(), e.isPrioritizer()]).toEqual(["e", true, true, false]);
    await expect(e.filter(makePod().obj(), [new NodeInfo()])).rejects.toThrow("timed out");
    expect(clock.now()).toBe(5000);
    expect(fired).toEqual([3000]);
    await expect(e.bind(makePod().obj(), "n")).rejects.toThrow("timed out");
    await expect(e.prioritize(makePod().obj(), [])).rejects.toThrow("timed out");
    await expect(e.processPreemption(makePod().obj(), new Map())).rejects.toThrow("timed out");
    expect(clock.now()).toBe(20_000);
  });

  it("other failures take no simulated time", async () => {
    const clock = new ManualClock(0);
    await expect(
      simulatedExtender(
        failing(new ExtenderError("code 500", "e", "e/filter")),
        clock,
        new InMemoryCluster(clock).client(),
      ).filter(makePod().obj(), []),
    ).rejects.toThrow("code 500");
    await expect(
      simulatedExtender(failing(new Error("other")), clock, new InMemoryCluster(clock).client()).filter(
        makePod().obj(),
        [],
      ),
    ).rejects.toThrow("other");
    expect(clock.now()).toBe(0);
  });
});

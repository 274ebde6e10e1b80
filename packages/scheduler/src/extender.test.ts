// upstream: pkg/scheduler/extender_test.go (TestIsInterested, TestConvertToVictims) and the
// wire format of staging/src/k8s.io/kube-scheduler/extender/v1/types.go, against a real HTTP
// server on 127.0.0.1; plus the engine with HTTP extenders (TestSchedulerWithExtenders-like).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Pod } from "@kubesched/api";
import { NodeInfo } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExplainRecorder } from "./explain";
import { type ExtenderConfig, ExtenderError, HTTPExtender, maxResponseBytesOverRequest } from "./extender";
import { equalPrioritizer, newTestScheduler, profile, trueFilter } from "./fake-source.test-util";

type Handler = (body: Record<string, unknown>, res: ServerResponse) => void | Promise<void>;

let server: Server;
let base = "";
const handlers = new Map<string, Handler>();
const requests: { path: string; body: Record<string, unknown>; contentType: string | undefined }[] = [];

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      const body = data ? (JSON.parse(data) as Record<string, unknown>) : {};
      const path = req.url ?? "";
      requests.push({ path, body, contentType: req.headers["content-type"] });
      const h = handlers.get(path);
      if (!h) return json(res, { error: `no handler for ${path}` }, 404);
      void h(body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  handlers.clear();
  requests.length = 0;
});

const nodeInfo = (name: string, pods: Pod[] = []) => {
  const ni = new NodeInfo();
  ni.setNode(makeNode().name(name).obj());
  for (const p of pods) ni.addPod(p);
  return ni;
};
const ext = (cfg: Partial<ExtenderConfig>) => new HTTPExtender({ urlPrefix: `${base}/ext/`, ...cfg });
const names = (nis: NodeInfo[]) => nis.map((n) => n.nodeName);
/** The message a promise rejects with. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: unknown) => (e as Error).message,
  );

describe("TestIsInterested", () => {
  const mem = { memory: "2" };
  const cases: { label: string; managed: string[]; pod: Pod; want: boolean }[] = [
    { label: "Empty managed resources", managed: [], pod: makePod().obj(), want: true },
    {
      label: "Managed memory, empty resources",
      managed: ["memory"],
      pod: makePod().container("app").obj(),
      want: false,
    },
    {
      label: "Managed memory, container memory with Requests",
      managed: ["memory"],
      pod: makePod().req(mem).obj(),
      want: true,
    },
    {
      label: "Managed memory, container memory with Limits",
      managed: ["memory"],
      pod: makePod().lim(mem).obj(),
      want: true,
    },
    {
      label: "Managed memory, init container memory",
      managed: ["memory"],
      pod: makePod()
        .container("app")
        .initContainer({ name: "init", image: "init", resources: { requests: mem } })
        .obj(),
      want: true,
    },
    {
      label: "Managed example.com/foo, pod requests cpu only",
      managed: ["example.com/foo"],
      pod: makePod().req({ cpu: "1" }).obj(),
      want: false,
    },
  ];
  for (const tc of cases) {
    it(tc.label, () => {
      const e = ext({ managedResources: tc.managed.map((name) => ({ name })) });
      expect(e.isInterested(tc.pod)).toBe(tc.want);
    });
  }
});

describe("HTTPExtender capabilities", () => {
  it("name is the URL prefix; verbs make it a filter/prioritizer/binder/preempter", () => {
    const e = ext({ filterVerb: "filter" });
    expect(e.name()).toBe(`${base}/ext/`);
    expect([e.isFilter(), e.isPrioritizer(), e.isBinder(), e.supportsPreemption(), e.isIgnorable()]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    const all = ext({
      prioritizeVerb: "p",
      bindVerb: "b",
      preemptVerb: "x",
      ignorable: true,
    });
    expect([
      all.isFilter(),
      all.isPrioritizer(),
      all.isBinder(),
      all.supportsPreemption(),
      all.isIgnorable(),
    ]).toEqual([false, true, true, true, true]);
  });
});

describe("HTTPExtender.filter", () => {
  it("sends full nodes and maps the returned NodeList back to the NodeInfos", async () => {
    handlers.set("/ext/filter", (body, res) => {
      const items = (body.nodes as { items: { metadata: { name: string } }[] }).items;
      json(res, {
        nodes: { items: items.filter((n) => n.metadata.name !== "b") },
        failedNodes: { b: "b is busy" },
      });
    });
    const a = nodeInfo("a");
    const nodes = [a, nodeInfo("b"), nodeInfo("c")];
    const pod = makePod().name("p").obj();
    const r = await ext({ filterVerb: "filter" }).filter(pod, nodes);
    expect(names(r.nodes)).toEqual(["a", "c"]);
    expect(r.nodes[0]).toBe(a);
    expect([...r.failedNodes]).toEqual([["b", "b is busy"]]);
    expect([...r.failedAndUnresolvableNodes]).toEqual([]);
    expect(requests[0]?.contentType).toBe("application/json");
    expect(requests[0]?.body.pod).toEqual(pod);
    expect(requests[0]?.body.nodenames).toBeUndefined();
  });

  it("nodeCacheCapable: sends and receives node names", async () => {
    handlers.set("/ext/filter", (body, res) => {
      expect(body.nodes).toBeUndefined();
      expect(body.nodenames).toEqual(["a", "b", "c"]);
      json(res, {
        nodenames: ["c"],
        failedNodes: { a: "a failed" },
        failedAndUnresolvableNodes: { b: "b failed for good" },
      });
    });
    const r = await ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [
      nodeInfo("a"),
      nodeInfo("b"),
      nodeInfo("c"),
    ]);
    expect(names(r.nodes)).toEqual(["c"]);
    expect(Object.fromEntries(r.failedNodes)).toEqual({ a: "a failed" });
    expect(Object.fromEntries(r.failedAndUnresolvableNodes)).toEqual({ b: "b failed for good" });
  });

  it("nodeCacheCapable: a node name that was not sent is an error (upstream)", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, { nodenames: ["a", "zz"] }));
    await expect(
      ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [nodeInfo("a")]),
    ).rejects.toThrow(
      `extender "${base}/ext/" claims a filtered node "zz" which is not found in the input node list`,
    );
  });

  it("the result's error field is an error", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, { error: "extender is sad" }));
    await expect(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")])).rejects.toThrow(
      "extender is sad",
    );
  });

  it("a non-200 status is an error naming the verb, URL and code", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, {}, 500));
    await expect(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")])).rejects.toThrow(
      `failed filter with extender at URL ${base}/ext/filter, code 500`,
    );
  });

  it("times out after httpTimeout: the error names the extender, the URL and the timeout", async () => {
    handlers.set("/ext/filter", () => {
      // never answers
    });
    const started = Date.now();
    const err = await ext({ filterVerb: "filter", httpTimeoutMs: 100 })
      .filter(makePod().obj(), [nodeInfo("a")])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtenderError);
    expect((err as ExtenderError).message).toBe(
      `extender "${base}/ext/": POST ${base}/ext/filter: no complete response within httpTimeout 100ms`,
    );
    expect(err).toMatchObject({ extender: `${base}/ext/`, url: `${base}/ext/filter`, timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("httpTimeout covers reading the body: a response that never ends times out", async () => {
    handlers.set("/ext/filter", (_b, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"nodenames":[');
    });
    await expect(
      ext({ filterVerb: "filter", httpTimeoutMs: 100 }).filter(makePod().obj(), [nodeInfo("a")]),
    ).rejects.toThrow(
      `extender "${base}/ext/": POST ${base}/ext/filter: no complete response within httpTimeout 100ms`,
    );
  });

  it("a connection dropped in the middle of the body is an error naming the extender", async () => {
    handlers.set("/ext/filter", (_b, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
      res.write('{"nodenames":[', () => res.socket?.destroy());
    });
    await expect(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")])).rejects.toThrow(
      `extender "${base}/ext/": POST ${base}/ext/filter: `,
    );
  });

  it("without a filter verb every node passes and nothing is sent", async () => {
    const r = await ext({}).filter(makePod().obj(), [nodeInfo("a")]);
    expect(names(r.nodes)).toEqual(["a"]);
    expect(requests).toEqual([]);
  });
});

describe("HTTPExtender: response size", () => {
  const limitMessage = (requestBytes: number) =>
    `extender "${base}/ext/": POST ${base}/ext/filter: the response exceeds ${requestBytes + maxResponseBytesOverRequest} bytes (the request's ${requestBytes} bytes plus 16 MiB)`;

  it("a response declared larger than the limit is refused without reading it (a 20 MB error)", async () => {
    let requestBytes = 0;
    handlers.set("/ext/filter", (body, res) => {
      requestBytes = Buffer.byteLength(JSON.stringify(body));
      json(res, { error: "x".repeat(20 * 1024 * 1024) });
    });
    const err = await ext({ filterVerb: "filter" })
      .filter(makePod().name("p").obj(), [nodeInfo("a")])
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(limitMessage(requestBytes));
  });

  it("a body without a length is read up to the limit, then the connection is dropped", async () => {
    let requestBytes = 0;
    let written = 0;
    let closed: Promise<void> = Promise.resolve();
    handlers.set("/ext/filter", (body, res) => {
      requestBytes = Buffer.byteLength(JSON.stringify(body));
      res.writeHead(200, { "Content-Type": "application/json" }); // chunked: no Content-Length
      res.write('{"error":"');
      const chunk = "y".repeat(1024 * 1024);
      closed = new Promise((resolve) => res.on("close", resolve));
      const pump = () => {
        // Endless unless the client hangs up (capped for safety at 64 MiB).
        while (!res.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    const err = await ext({ filterVerb: "filter" })
      .filter(makePod().name("p").obj(), [nodeInfo("a")])
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(limitMessage(requestBytes));
    await closed;
    expect(written).toBeLessThan(48 * 1024 * 1024);
  });

  it("an error under the limit is cut to 1024 characters", async () => {
    handlers.set("/ext/filter", (_b, res) =>
      json(res, { error: `${"e".repeat(1024)}${"f".repeat(1_000_000)}` }),
    );
    expect(await failure(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")]))).toBe(
      `${"e".repeat(1024)}... (1000000 more characters)`,
    );
  });

  it("failure messages, claimed node names and victim UIDs are cut too", async () => {
    const long = "m".repeat(5000);
    handlers.set("/ext/filter", (_b, res) =>
      json(res, { nodenames: [], failedNodes: { a: long }, failedAndUnresolvableNodes: { b: long } }),
    );
    const r = await ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [
      nodeInfo("a"),
      nodeInfo("b"),
    ]);
    const cut = `${"m".repeat(1024)}... (3976 more characters)`;
    expect(Object.fromEntries(r.failedNodes)).toEqual({ a: cut });
    expect(Object.fromEntries(r.failedAndUnresolvableNodes)).toEqual({ b: cut });
    handlers.set("/ext/filter", (_b, res) => json(res, { nodenames: [long] }));
    expect(
      await failure(
        ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [nodeInfo("a")]),
      ),
    ).toBe(
      `extender "${base}/ext/" claims a filtered node "${cut}" which is not found in the input node list`,
    );
  });

  it("a non-200 answer is not read", async () => {
    handlers.set("/ext/filter", (_b, res) => {
      res.writeHead(503, { "Content-Type": "text/plain", "Content-Length": String(1024 * 1024 * 1024) });
      res.write("not json, and a gigabyte announced");
    });
    expect(await failure(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")]))).toBe(
      `failed filter with extender at URL ${base}/ext/filter, code 503`,
    );
  });
});

describe("HTTPExtender: responses decoded as upstream's Go client decodes them", () => {
  const decodeError = (verb: string, goMessage: string) =>
    `extender "${base}/ext/": POST ${base}/ext/${verb}: decoding the response: ${goMessage}`;
  const raw =
    (text: string): Handler =>
    (_b, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(text);
    };

  const scoreCases: [string, string][] = [
    ['"1e999"', "json: cannot unmarshal string into Go struct field HostPriority.Score of type int64"],
    ["1e999", "json: cannot unmarshal number 1e999 into Go struct field HostPriority.Score of type int64"],
    ["-1e308", "json: cannot unmarshal number -1e308 into Go struct field HostPriority.Score of type int64"],
    ["2.5", "json: cannot unmarshal number 2.5 into Go struct field HostPriority.Score of type int64"],
    ["true", "json: cannot unmarshal bool into Go struct field HostPriority.Score of type int64"],
  ];
  for (const [score, goMessage] of scoreCases) {
    it(`prioritize: a score of ${score} is an error naming the extender`, async () => {
      handlers.set("/ext/prioritize", raw(`[{"host":"a","score":3},{"host":"b","score":${score}}]`));
      expect(
        await failure(
          ext({ prioritizeVerb: "prioritize", weight: 1 }).prioritize(makePod().obj(), [
            nodeInfo("a"),
            nodeInfo("b"),
          ]),
        ),
      ).toBe(decodeError("prioritize", goMessage));
    });
  }

  it("prioritize: null is 0, unknown fields are ignored, a host listed twice gets the sum", async () => {
    handlers.set(
      "/ext/prioritize",
      raw('[{"Host":"a","Score":null,"why":{"x":[1]}},{"host":"b","score":4},{"HOST":"b","SCORE":3}]'),
    );
    const r = await ext({ prioritizeVerb: "prioritize", weight: 2 }).prioritize(makePod().obj(), [
      nodeInfo("a"),
      nodeInfo("b"),
    ]);
    expect(Object.fromEntries(r.scores)).toEqual({ a: 0, b: 7 });
  });

  it("filter: a wrong type is an error naming the extender", async () => {
    handlers.set("/ext/filter", raw('{"nodenames":"a"}'));
    expect(
      await failure(
        ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [nodeInfo("a")]),
      ),
    ).toBe(
      decodeError(
        "filter",
        "json: cannot unmarshal string into Go struct field ExtenderFilterResult.NodeNames of type []string",
      ),
    );
  });

  it("filter: nodeCacheCapable without NodeNames falls back to Nodes (upstream)", async () => {
    handlers.set("/ext/filter", raw('{"NodeNames":null,"Nodes":{"items":[{"metadata":{"name":"b"}}]}}'));
    const r = await ext({ filterVerb: "filter", nodeCacheCapable: true }).filter(makePod().obj(), [
      nodeInfo("a"),
      nodeInfo("b"),
    ]);
    expect(names(r.nodes)).toEqual(["b"]);
  });

  it("filter: an empty body is EOF, invalid JSON the scanner's error", async () => {
    handlers.set("/ext/filter", raw(""));
    expect(await failure(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")]))).toBe(
      decodeError("filter", "EOF"),
    );
    handlers.set("/ext/filter", raw("<html>"));
    expect(await failure(ext({ filterVerb: "filter" }).filter(makePod().obj(), [nodeInfo("a")]))).toBe(
      decodeError("filter", "invalid character '<' looking for beginning of value"),
    );
  });

  it("bind: a wrong type is an error naming the extender", async () => {
    handlers.set("/ext/bind", raw('{"error":{"reason":"no"}}'));
    expect(await failure(ext({ bindVerb: "bind" }).bind(makePod().name("p").obj(), "n"))).toBe(
      decodeError(
        "bind",
        "json: cannot unmarshal object into Go struct field ExtenderBindingResult.Error of type string",
      ),
    );
  });

  it("preempt: a wrong type, a null victims entry and a null pod are errors naming the extender", async () => {
    const p1 = makePod().name("pod1").uid("uid1").node("node1").obj();
    const offered = new Map([["node1", { pods: [p1], numPDBViolations: 0 }]]);
    const preempt = () =>
      ext({ preemptVerb: "preempt", nodeCacheCapable: true }).processPreemption(makePod().obj(), offered);
    handlers.set(
      "/ext/preempt",
      raw('{"nodeNameToMetaVictims":{"node1":{"pods":[{"uid":"uid1"}],"numPDBViolations":0.5}}}'),
    );
    expect(await failure(preempt())).toBe(
      decodeError(
        "preempt",
        "json: cannot unmarshal number 0.5 into Go struct field MetaVictims.NodeNameToMetaVictims.NumPDBViolations of type int64",
      ),
    );
    handlers.set("/ext/preempt", raw('{"nodeNameToMetaVictims":{"node1":null}}'));
    expect(await failure(preempt())).toBe(`extender "${base}/ext/" returned null victims for node node1`);
    handlers.set("/ext/preempt", raw('{"nodeNameToMetaVictims":{"node1":{"pods":[null]}}}'));
    expect(await failure(preempt())).toBe(`extender "${base}/ext/" returned a null victim pod on node node1`);
    handlers.set("/ext/preempt", raw('{"nodeNameToMetaVictims":{"node1":{"pods":[{"uid":"uid1"}]}}}'));
    const r = await preempt();
    expect(r.get("node1")).toEqual({ pods: [p1], numPDBViolations: 0 });
  });
});

describe("HTTPExtender.prioritize", () => {
  it("returns the host scores and the configured weight", async () => {
    handlers.set("/ext/prioritize", (_b, res) =>
      json(res, [
        { host: "a", score: 3 },
        { host: "b", score: 10 },
      ]),
    );
    const r = await ext({ prioritizeVerb: "prioritize", weight: 5 }).prioritize(makePod().obj(), [
      nodeInfo("a"),
      nodeInfo("b"),
    ]);
    expect(Object.fromEntries(r.scores)).toEqual({ a: 3, b: 10 });
    expect(r.weight).toBe(5);
  });
  it("without a prioritize verb every node scores 0 with weight 0", async () => {
    const r = await ext({ weight: 5 }).prioritize(makePod().obj(), [nodeInfo("a")]);
    expect(Object.fromEntries(r.scores)).toEqual({ a: 0 });
    expect(r.weight).toBe(0);
  });
});

describe("HTTPExtender.bind", () => {
  it("sends ExtenderBindingArgs", async () => {
    handlers.set("/ext/bind", (_b, res) => json(res, {}));
    await ext({ bindVerb: "bind" }).bind(makePod().name("p").namespace("ns").uid("u1").obj(), "node-a");
    expect(requests[0]?.body).toEqual({ podName: "p", podNamespace: "ns", podUID: "u1", node: "node-a" });
  });
  it("an error in the result fails the binding", async () => {
    handlers.set("/ext/bind", (_b, res) => json(res, { error: "no way" }));
    await expect(ext({ bindVerb: "bind" }).bind(makePod().name("p").obj(), "n")).rejects.toThrow("no way");
  });
});

describe("TestConvertToVictims", () => {
  // upstream converts the returned MetaVictims (UIDs) back to pods through the node infos; here
  // through the victims offered for each node.
  const p1 = makePod().name("pod1").uid("uid1").node("node1").obj();
  const p2 = makePod().name("pod2").uid("uid2").node("node1").obj();
  const p3 = makePod().name("pod3").uid("uid3").node("node2").obj();
  const offered = () =>
    new Map([
      ["node1", { pods: [p1, p2], numPDBViolations: 1 }],
      ["node2", { pods: [p3], numPDBViolations: 0 }],
    ]);

  it("test NodeNameToMetaVictims with nodeCacheCapable", async () => {
    handlers.set("/ext/preempt", (body, res) => {
      expect(body.nodeNameToVictims).toBeUndefined();
      expect(body.nodeNameToMetaVictims).toEqual({
        node1: { pods: [{ uid: "uid1" }, { uid: "uid2" }], numPDBViolations: 1 },
        node2: { pods: [{ uid: "uid3" }], numPDBViolations: 0 },
      });
      json(res, { nodeNameToMetaVictims: { node1: { pods: [{ uid: "uid2" }], numPDBViolations: 1 } } });
    });
    const r = await ext({ preemptVerb: "preempt", nodeCacheCapable: true }).processPreemption(
      makePod().name("p").obj(),
      offered(),
    );
    expect([...r.keys()]).toEqual(["node1"]);
    expect(r.get("node1")?.pods).toEqual([p2]);
    expect(r.get("node1")?.numPDBViolations).toBe(1);
  });

  it("test NodeNameToVictims without nodeCacheCapable", async () => {
    handlers.set("/ext/preempt", (body, res) => {
      expect(body.nodeNameToMetaVictims).toBeUndefined();
      const v = body.nodeNameToVictims as Record<string, { pods: Pod[]; numPDBViolations: number }>;
      expect(v.node1?.pods.map((p) => p.metadata?.name)).toEqual(["pod1", "pod2"]);
      // The extender always answers with meta victims.
      json(res, {
        nodeNameToMetaVictims: {
          node1: { pods: [{ uid: "uid1" }], numPDBViolations: 0 },
          node2: { pods: [{ uid: "uid3" }], numPDBViolations: 0 },
        },
      });
    });
    const r = await ext({ preemptVerb: "preempt" }).processPreemption(makePod().obj(), offered());
    expect(r.get("node1")?.pods).toEqual([p1]);
    expect(r.get("node2")?.pods).toEqual([p3]);
  });

  it("a victim that is not on the node is an error", async () => {
    handlers.set("/ext/preempt", (_b, res) =>
      json(res, { nodeNameToMetaVictims: { node2: { pods: [{ uid: "uid1" }], numPDBViolations: 0 } } }),
    );
    await expect(
      ext({ preemptVerb: "preempt", nodeCacheCapable: true }).processPreemption(makePod().obj(), offered()),
    ).rejects.toThrow(/uid1/);
  });

  it("a node that is not a candidate is an error", async () => {
    handlers.set("/ext/preempt", (_b, res) =>
      json(res, { nodeNameToMetaVictims: { node9: { pods: [], numPDBViolations: 0 } } }),
    );
    await expect(
      ext({ preemptVerb: "preempt" }).processPreemption(makePod().obj(), offered()),
    ).rejects.toThrow(/node9/);
  });

  it("without a preempt verb, ProcessPreemption is an error", async () => {
    await expect(ext({}).processPreemption(makePod().obj(), offered())).rejects.toThrow(/preempt verb/);
  });
});

// ---------------------------------------------------------------------------------------------
// The engine with HTTP extenders (upstream TestSchedulerWithExtenders cases, over HTTP).

describe("TestSchedulerWithExtenders", () => {
  const nodes = () => ["node1", "node2", "node3"].map((n) => makeNode().name(n).obj());
  async function run(extenders: HTTPExtender[], explain?: ExplainRecorder) {
    const ts = await newTestScheduler({
      plugins: [trueFilter, equalPrioritizer],
      profiles: [profile({ filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] })],
      nodes: nodes(),
      extenders,
      ...(explain ? { explain } : {}),
    });
    await ts.schedule(makePod().name("p").uid("p").obj());
    return ts;
  }
  const filterOnly =
    (
      keep: string[],
      failed: Record<string, string> = {},
      unresolvable: Record<string, string> = {},
    ): Handler =>
    (body, res) =>
      json(res, {
        nodenames: (body.nodenames as string[]).filter((n) => keep.includes(n)),
        failedNodes: failed,
        failedAndUnresolvableNodes: unresolvable,
      });

  it("test 1: the extender narrows the feasible nodes", async () => {
    handlers.set("/ext/filter", filterOnly(["node2"], { node1: "no", node3: "no" }));
    const ts = await run([ext({ filterVerb: "filter", nodeCacheCapable: true })]);
    expect(ts.source.bindings()).toEqual({ p: "node2" });
  });

  it("test 2: extender prioritizer picks the best node (score x weight x 10)", async () => {
    handlers.set("/ext/prioritize", (_b, res) =>
      json(res, [
        { host: "node1", score: 1 },
        { host: "node2", score: 1 },
        { host: "node3", score: 10 },
      ]),
    );
    const explain = new ExplainRecorder();
    const ts = await run([ext({ prioritizeVerb: "prioritize", weight: 2, nodeCacheCapable: true })], explain);
    expect(ts.source.bindings()).toEqual({ p: "node3" });
    // EqualPrioritizer gives 1 each; the extender adds score * weight * 10.
    expect(explain.get("/p")?.finalScore).toEqual({ node1: 21, node2: 21, node3: 201 });
  });

  it("test 3: two prioritizers with weights combine", async () => {
    handlers.set("/a/prioritize", (_b, res) =>
      json(res, [
        { host: "node1", score: 10 },
        { host: "node2", score: 1 },
        { host: "node3", score: 1 },
      ]),
    );
    handlers.set("/b/prioritize", (_b, res) =>
      json(res, [
        { host: "node1", score: 1 },
        { host: "node2", score: 10 },
        { host: "node3", score: 1 },
      ]),
    );
    const a = new HTTPExtender({ urlPrefix: `${base}/a`, prioritizeVerb: "prioritize", weight: 1 });
    const b = new HTTPExtender({ urlPrefix: `${base}/b`, prioritizeVerb: "prioritize", weight: 5 });
    const ts = await run([a, b]);
    expect(ts.source.bindings()).toEqual({ p: "node2" });
  });

  it("test 4: prioritize errors are ignored", async () => {
    handlers.set("/ext/prioritize", (_b, res) => json(res, {}, 500));
    const ts = await run([ext({ prioritizeVerb: "prioritize", weight: 1 })]);
    expect(Object.keys(ts.source.bindings())).toEqual(["p"]);
    expect(ts.failures).toEqual([]);
  });

  it("a prioritizer's score that is no int64 (1e999) gives no score: the final scores stay integers", async () => {
    handlers.set("/ext/prioritize", (_b, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        '[{"host":"node1","score":1e999},{"host":"node2","score":null},{"host":"node3","score":-1e308}]',
      );
    });
    const explain = new ExplainRecorder();
    const ts = await run([ext({ prioritizeVerb: "prioritize", weight: 2, nodeCacheCapable: true })], explain);
    expect(Object.keys(ts.source.bindings())).toEqual(["p"]);
    expect(explain.get("/p")?.finalScore).toEqual({ node1: 1, node2: 1, node3: 1 });
    expect(
      ts.logger.entries.find(
        (e) => e.v === 5 && e.msg.startsWith("Failed to run extender's priority function"),
      ),
    ).toMatchObject({
      fields: { extender: `${base}/ext/`, pod: "/p" },
    });
  });

  it("a prioritizer's null score is 0", async () => {
    handlers.set("/ext/prioritize", (_b, res) =>
      json(res, [
        { host: "node1", score: null },
        { host: "node2", score: 3 },
        { host: "node3", score: 0 },
      ]),
    );
    const explain = new ExplainRecorder();
    await run([ext({ prioritizeVerb: "prioritize", weight: 1, nodeCacheCapable: true })], explain);
    expect(explain.get("/p")?.finalScore).toEqual({ node1: 1, node2: 31, node3: 1 });
  });

  it("a filter answer that does not decode fails the attempt with an error naming the extender", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, { nodenames: ["node1"], failedNodes: ["node2"] }));
    const ts = await run([ext({ filterVerb: "filter", nodeCacheCapable: true })]);
    expect(ts.failures.map((f) => [f.reason, f.message])).toEqual([
      [
        "SchedulerError",
        `extender "${base}/ext/": POST ${base}/ext/filter: decoding the response: json: cannot unmarshal array into Go struct field ExtenderFilterResult.FailedNodes of type v1.FailedNodesMap`,
      ],
    ]);
  });

  it("test 5: a filter error fails the attempt with the extender's error", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, { error: "filter exploded" }));
    const ts = await run([ext({ filterVerb: "filter" })]);
    expect(ts.failures.map((f) => [f.reason, f.message])).toEqual([["SchedulerError", "filter exploded"]]);
  });

  it("test 6: an ignorable extender's HTTP error is skipped", async () => {
    handlers.set("/ext/filter", (_b, res) => json(res, {}, 503));
    const ts = await run([ext({ filterVerb: "filter", ignorable: true })]);
    expect(Object.keys(ts.source.bindings())).toEqual(["p"]);
  });

  it("test 7: every node filtered out: FitError with the extender's reasons", async () => {
    handlers.set(
      "/ext/filter",
      filterOnly([], { node1: "node1 is full", node2: "node2 is full" }, { node3: "node3 is gone" }),
    );
    const ts = await run([ext({ filterVerb: "filter", nodeCacheCapable: true })]);
    expect(ts.failures.map((f) => f.message)).toEqual([
      "0/3 nodes are available: 1 node1 is full, 1 node2 is full, 1 node3 is gone.",
    ]);
    const info = ts.failures[0]!.info;
    expect([...info.unschedulablePlugins]).toEqual(["Extender"]);
  });

  it("test 8: a binder extender binds instead of DefaultBinder", async () => {
    handlers.set("/ext/bind", (_b, res) => json(res, {}));
    const ts = await run([ext({ bindVerb: "bind" })]);
    expect(requests.find((r) => r.path === "/ext/bind")?.body).toEqual({
      podName: "p",
      podNamespace: "",
      podUID: "p",
      node: ts.scheduled[0]?.node,
    });
    expect(ts.source.calls.calls.filter((c) => c.verb === "bind")).toEqual([]);
    expect(ts.source.recorder.events.map((e) => e.reason)).toEqual(["Scheduled"]);
  });

  it("test 9: a binder extender not interested in the pod leaves binding to DefaultBinder", async () => {
    const e = ext({ bindVerb: "bind", managedResources: [{ name: "example.com/foo" }] });
    const ts = await run([e]);
    expect(requests).toEqual([]);
    expect(ts.source.calls.calls.filter((c) => c.verb === "bind")).toHaveLength(1);
  });

  it("test 10: a binder extender's error fails the binding cycle", async () => {
    handlers.set("/ext/bind", (_b, res) => json(res, { error: "bind refused" }));
    const ts = await run([ext({ bindVerb: "bind" })]);
    expect(ts.failures.map((f) => [f.reason, f.message])).toEqual([["SchedulerError", "bind refused"]]);
    expect(ts.sched.cache.isAssumedPod(makePod().name("p").uid("p").obj())).toBe(false);
  });
});

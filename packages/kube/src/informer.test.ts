// The reflector against the API-server emulator: client-go's reflector_test.go cases (names
// verbatim where they carry over), through real HTTP list and watch requests.
import type { Pod } from "@kubesched/api";
import { ManualClock } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { afterEach, describe, expect, it } from "vitest";
import { delayWithReset, reflectorBackoff } from "./backoff";
import { DeletedFinalStateUnknown, Informer } from "./informer";
import { RawClient } from "./raw-client";
import { resources } from "./resources";
import { FakeApiServer, type FakeApiServerOptions, type RecordedRequest, waitFor } from "./testing";

let server: FakeApiServer;
let informer: Informer<Pod> | undefined;

afterEach(async () => {
  await informer?.stop();
  informer = undefined;
  await server?.close();
});

type Call = [string, string];

function pod(name: string): Pod {
  return makePod().name(name).namespace("ns").obj();
}

async function start(
  opts: { server?: FakeApiServerOptions; pageSize?: number; minWatchTimeoutSeconds?: number } = {},
): Promise<{ calls: Call[]; errors: string[]; inf: Informer<Pod> }> {
  server ??= await FakeApiServer.start(opts.server);
  const calls: Call[] = [];
  const errors: string[] = [];
  const name = (o: Pod) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
  informer = new Informer<Pod>({
    resource: resources.Pod,
    client: new RawClient(server.kubeConfig()),
    handlers: {
      add: (o) => calls.push(["add", name(o)]),
      update: (_a, b) => calls.push(["update", name(b)]),
      delete: (o) =>
        calls.push(
          o instanceof DeletedFinalStateUnknown
            ? ["deleteFinalStateUnknown", name(o.obj)]
            : ["delete", name(o)],
        ),
    },
    backoff: { durationMs: 10, capMs: 40, steps: 3, factor: 2, jitter: 0 },
    ...(opts.pageSize ? { pageSize: opts.pageSize } : {}),
    ...(opts.minWatchTimeoutSeconds ? { minWatchTimeoutSeconds: opts.minWatchTimeoutSeconds } : {}),
    onError: (e) => errors.push(e.message),
  });
  informer.start();
  await informer.waitForSync();
  return { calls, errors, inf: informer };
}

const lists = () => server.requestsTo("GET", "/api/v1/pods").filter((r) => r.query.watch !== "true");
const watches = () => server.requestsTo("GET", "/api/v1/pods").filter((r) => r.query.watch === "true");
const openWatch = () => waitFor(() => server.openWatches("Pod") === 1, 3000, "an open watch");

describe("TestReflectorListAndWatch", () => {
  it("lists from resourceVersion 0, then watches from the list's version with bookmarks and a timeout", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", pod("foo"));
    const { calls } = await start({ minWatchTimeoutSeconds: 300 });
    await openWatch();
    const [list] = lists();
    expect(list?.query).toMatchObject({ resourceVersion: "0", limit: "500" });
    const [w] = watches();
    expect(w?.query).toMatchObject({
      resourceVersion: String(server.resourceVersion()),
      allowWatchBookmarks: "true",
      fieldSelector: "status.phase!=Succeeded,status.phase!=Failed",
    });
    const timeout = Number(w?.query.timeoutSeconds);
    expect(timeout).toBeGreaterThanOrEqual(300);
    expect(timeout).toBeLessThan(600);
    expect(calls).toEqual([["add", "foo@2"]]);
  });

  it("re-watches at once from the last event's version after a watch that delivered events", async () => {
    server = await FakeApiServer.start();
    const { calls, inf } = await start();
    await openWatch();
    server.put("Pod", pod("bar"));
    await waitFor(() => calls.length === 1);
    server.closeWatches("Pod");
    server.put("Pod", pod("baz"));
    await waitFor(() => calls.length === 2, 3000, "the event after the re-watch");
    expect(watches()[1]?.query.resourceVersion).toBe("2");
    expect(inf.lists).toBe(1);
  });
});

describe("watch drops after N events", () => {
  for (const n of [1, 3]) {
    it(`sees every change in order and never relists when each watch ends after ${n} event(s)`, async () => {
      server = await FakeApiServer.start();
      server.setCloseWatchesAfter(n, "Pod");
      const { calls, inf, errors } = await start();
      await openWatch();
      for (let i = 0; i < 12; i++) server.put("Pod", pod(`p${i}`));
      await waitFor(() => calls.length === 12, 5000, "12 adds");
      expect(calls.map((c) => c[1].split("@")[0])).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`));
      expect(inf.lists).toBe(1);
      expect(watches().length).toBeGreaterThanOrEqual(12 / n);
      expect(errors).toEqual([]);
    });
  }
});

describe("TestReflectorWatchHandler", () => {
  it("hands DELETED handlers the event's final object, and relist deletions as DeletedFinalStateUnknown", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", pod("foo"));
    server.put("Pod", pod("gone"));
    const { calls, inf } = await start();
    await openWatch();
    server.put("Pod", { ...pod("foo"), metadata: { ...pod("foo").metadata, labels: { final: "yes" } } });
    server.remove("Pod", "ns", "foo");
    await waitFor(() => calls.length === 4);
    expect(calls[3]).toEqual(["delete", `foo@${server.resourceVersion()}`]);
    server.remove("Pod", "ns", "gone", { silent: true });
    server.expire("Pod");
    await waitFor(() => inf.lists === 2, 3000, "the relist");
    expect(calls[4]).toEqual(["deleteFinalStateUnknown", "gone@3"]);
  });
});

describe("TestRetryInternalError", () => {
  it("relists after a watch ERROR that is not 410 (client-go gives internal errors no retry by default)", async () => {
    server = await FakeApiServer.start();
    const { inf, errors } = await start();
    await openWatch();
    server.errorWatches("Pod", 500);
    await waitFor(() => inf.lists === 2, 3000, "the relist");
    expect(errors.some((e) => e.includes("injected watch error"))).toBe(true);
    // Relists from the last version seen, unpaged, so the API server's cache can serve it.
    expect(lists()[1]?.query).toMatchObject({ resourceVersion: String(server.resourceVersion()) });
    expect(lists()[1]?.query.limit).toBeUndefined();
  });
});

describe("TestReflectorNotPaginatingNotConsistentReads", () => {
  it("relists after 410 from the last version seen, without a limit, and reports nothing", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", pod("a"));
    const { inf, errors } = await start();
    await openWatch();
    const rv = server.resourceVersion();
    server.expire("Pod");
    await waitFor(() => inf.lists === 2, 3000, "the relist");
    expect(lists()[1]?.query).toMatchObject({ resourceVersion: String(rv) });
    expect(lists()[1]?.query.limit).toBeUndefined();
    expect(errors).toEqual([]);
  });
});

describe("TestReflectorPaginatingNonConsistentReadsIfWatchCacheDisabled", () => {
  it("pages with continue tokens, and keeps paging relists once the server paged the first list", async () => {
    server = await FakeApiServer.start({ watchCacheIgnoresLimit: false });
    for (let i = 0; i < 10; i++) server.put("Pod", pod(`pod-${i}`));
    const { inf } = await start({ pageSize: 4 });
    expect(inf.store.list()).toHaveLength(10);
    const pages = lists();
    expect(pages.map((p) => [p.query.resourceVersion, p.query.limit, !!p.query.continue])).toEqual([
      ["0", "4", false],
      [undefined, "4", true],
      [undefined, "4", true],
    ]);
    await openWatch();
    server.errorWatches("Pod", 500);
    await waitFor(() => inf.lists === 2, 3000, "the relist");
    expect(lists()[3]?.query).toMatchObject({
      limit: "4",
      resourceVersion: String(server.resourceVersion()),
    });
    expect(inf.store.list()).toHaveLength(10);
  });
});

describe("TestReflectorFullListIfExpired", () => {
  it("falls back to one full list when a continue token expires", async () => {
    server = await FakeApiServer.start({ watchCacheIgnoresLimit: false });
    for (let i = 0; i < 10; i++) server.put("Pod", pod(`pod-${i}`));
    server.fail({
      method: "GET",
      path: "/api/v1/pods",
      status: 410,
      match: (r: RecordedRequest) => !!r.query.continue,
    });
    const { inf } = await start({ pageSize: 4 });
    expect(inf.store.list()).toHaveLength(10);
    const last = lists().at(-1);
    expect(last?.query.limit).toBeUndefined();
    expect(last?.query.continue).toBeUndefined();
    expect(last?.query.resourceVersion).toBe("0");
  });
});

describe("TestReflectorFullListIfTooLarge", () => {
  it("relists with a consistent read after 'too large resource version'", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", pod("a"));
    server.fail({
      method: "GET",
      path: "/api/v1/pods",
      status: 504,
      causes: ["ResourceVersionTooLarge"],
      match: (r) => r.query.watch !== "true" && r.query.resourceVersion === "0",
    });
    const { inf } = await start();
    expect(inf.store.list()).toHaveLength(1);
    expect(lists().map((r) => r.query.resourceVersion)).toEqual(["0", undefined]);
  });
});

describe("TestBackoffOnTooManyRequests", () => {
  it("backs off and re-watches without relisting when the watch is refused with 429", async () => {
    server = await FakeApiServer.start();
    server.fail({
      method: "GET",
      path: "/api/v1/pods",
      status: 429,
      times: 2,
      match: (r) => r.query.watch === "true",
    });
    const { inf } = await start();
    await openWatch();
    expect(watches()).toHaveLength(3);
    expect(inf.lists).toBe(1);
  });
});

describe("TestVeryShortWatch", () => {
  it("treats a watch that ends within a second without events as an error: backoff, then relist", async () => {
    server = await FakeApiServer.start();
    const { inf, errors } = await start();
    await openWatch();
    server.closeWatches("Pod");
    await waitFor(() => inf.lists === 2, 3000, "the relist");
    expect(errors.some((e) => e.startsWith("very short watch"))).toBe(true);
  });
});

describe("network errors", () => {
  it("re-watches at once after a reset that cut a watch which had delivered events", async () => {
    server = await FakeApiServer.start();
    const { calls, inf } = await start();
    await openWatch();
    server.put("Pod", pod("a"));
    await waitFor(() => calls.length === 1);
    server.resetWatches("Pod");
    server.put("Pod", pod("b"));
    await waitFor(() => calls.length === 2, 3000, "the event after the reset");
    expect(inf.lists).toBe(1);
  });

  it("stops promptly while the server hangs a list", async () => {
    server = await FakeApiServer.start();
    server.fail({ method: "GET", path: "/api/v1/pods", hang: true, times: Number.POSITIVE_INFINITY });
    informer = new Informer<Pod>({
      resource: resources.Pod,
      client: new RawClient(server.kubeConfig()),
      handlers: { add: () => undefined, update: () => undefined, delete: () => undefined },
    });
    informer.start();
    await waitFor(() => server.hungRequests().length === 1);
    await informer.stop();
    expect(informer.hasSynced()).toBe(false);
  });
});

describe("reflector backoff (wait.Backoff with client-go's reflector parameters)", () => {
  it("doubles from 800 ms to a 30 s cap, each delay jittered by up to 100%", () => {
    const clock = new ManualClock();
    const none = delayWithReset(reflectorBackoff, clock, 120_000, () => 0);
    expect(Array.from({ length: 8 }, () => none())).toEqual([
      800, 1600, 3200, 6400, 12800, 25600, 30000, 30000,
    ]);
    const full = delayWithReset(reflectorBackoff, clock, 120_000, () => 0.999999);
    expect(Math.round(full())).toBe(1600);
  });

  it("starts over once more than 2 minutes have passed since the last reset", () => {
    const clock = new ManualClock();
    const d = delayWithReset(reflectorBackoff, clock, 120_000, () => 0);
    d();
    d();
    expect(d()).toBe(3200);
    clock.advance(120_001);
    expect(d()).toBe(800);
  });
});

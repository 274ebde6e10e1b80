// Watches as the API server's watch cache serves them (upstream
// staging/src/k8s.io/apiserver/pkg/storage/cacher: cache_watcher.go nextBookmarkTime,
// watch_cache.go waitUntilFreshAndBlock), over HTTP.
import { makePod } from "@kubesched/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FakeApiServer } from "../testing";
import type { Obj } from "./object-store";

let server: FakeApiServer;

afterEach(async () => {
  await server.close();
});

/** Every event of a watch until the server ends it. */
async function watchEvents(query: Record<string, string>): Promise<{ type: string; object: Obj }[]> {
  const res = await fetch(`${server.url}/api/v1/pods?${new URLSearchParams({ watch: "true", ...query })}`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; object: Obj });
}

describe("watch bookmarks", () => {
  it("sends a BOOKMARK before the watch's deadline, long before the bookmark interval", async () => {
    server = await FakeApiServer.start();
    const pod = server.put("Pod", makePod().name("a").namespace("ns").obj());
    const rv = String(server.resourceVersion());
    const events = await watchEvents({
      resourceVersion: rv,
      allowWatchBookmarks: "true",
      timeoutSeconds: "3",
    });
    expect(events).toEqual([
      {
        type: "BOOKMARK",
        object: {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { resourceVersion: pod.metadata.resourceVersion },
        },
      },
    ]);
  });

  it("sends none to a watch that does not allow them", async () => {
    server = await FakeApiServer.start({ bookmarkIntervalMs: 200 });
    server.put("Pod", makePod().name("a").namespace("ns").obj());
    const rv = String(server.resourceVersion());
    expect(await watchEvents({ resourceVersion: rv, timeoutSeconds: "3" })).toEqual([]);
  });
});

describe("watch resourceVersion", () => {
  it("refuses a watch from a version the server has not reached: 504 Too large resource version", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", makePod().name("a").namespace("ns").obj());
    const current = server.resourceVersion();
    const res = await fetch(`${server.url}/api/v1/pods?watch=true&resourceVersion=${current + 10}`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({
      kind: "Status",
      code: 504,
      reason: "Timeout",
      message: `Timeout: Too large resource version: ${current + 10}, current: ${current}`,
      details: { causes: [{ type: "ResourceVersionTooLarge" }] },
    });
    expect(server.openWatches("Pod")).toBe(0);
  });

  it("answers a watch from a compacted version with an ERROR 410 event", async () => {
    server = await FakeApiServer.start();
    server.put("Pod", makePod().name("a").namespace("ns").obj());
    const old = server.resourceVersion();
    server.put("Pod", makePod().name("b").namespace("ns").obj());
    server.compact();
    const events = await watchEvents({ resourceVersion: String(old - 1) });
    expect(events).toEqual([
      {
        type: "ERROR",
        object: expect.objectContaining({ code: 410, reason: "Expired" }),
      },
    ]);
  });
});

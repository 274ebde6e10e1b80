// Extenders over HTTPS with the configuration's tlsConfig (upstream extender.go makeTransport),
// through the assembled scheduler: the KubeSchedulerConfiguration is decoded, and the scheduler
// builds the HTTP extenders from it.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod } from "@kubesched/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { equalPrioritizer, newTestScheduler, profile, trueFilter } from "./fake-source.test-util";

const testdata = (f: string) => fileURLToPath(new URL(`../testdata/${f}`, import.meta.url));
const b64 = (f: string) => readFileSync(testdata(f)).toString("base64");

let server: Server;
let port = 0;
beforeAll(async () => {
  // A server certificate for localhost / 127.0.0.1, signed by testdata/ca.crt.
  server = createServer(
    { key: readFileSync(testdata("server.key")), cert: readFileSync(testdata("server.crt")) },
    (req, res) => {
      let data = "";
      req.on("data", (c) => {
        data += c;
      });
      req.on("end", () => {
        const body = JSON.parse(data) as { nodenames: string[] };
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            nodenames: body.nodenames.filter((n) => n === "node2"),
            failedNodes: { node1: "no", node3: "no" },
          }),
        );
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function scheduleWith(extender: string) {
  const config = loadConfig(
    `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: https://127.0.0.1:${port}/ext
  filterVerb: filter
  nodeCacheCapable: true
${extender}`,
    { registry: inTreeRegistry },
  );
  const ts = await newTestScheduler({
    plugins: [trueFilter, equalPrioritizer],
    profiles: [profile({ filter: ["TrueFilter"], score: ["EqualPrioritizerPlugin"] })],
    nodes: ["node1", "node2", "node3"].map((n) => makeNode().name(n).obj()),
    config: { extenders: config.extenders },
  });
  await ts.schedule(makePod().name("p").uid("p").obj());
  return ts;
}

describe("extenders over HTTPS with tlsConfig", () => {
  it("caData verifies the extender's certificate", async () => {
    const ts = await scheduleWith(`  tlsConfig:\n    caData: ${b64("ca.crt")}\n`);
    expect(ts.source.bindings()).toEqual({ p: "node2" });
  });

  it("caFile and serverName verify the extender's certificate", async () => {
    const ts = await scheduleWith(
      `  tlsConfig:\n    caFile: ${testdata("ca.crt")}\n    serverName: localhost\n`,
    );
    expect(ts.source.bindings()).toEqual({ p: "node2" });
  });

  it("enableHTTPS without a CA does not verify the certificate, as upstream", async () => {
    const ts = await scheduleWith("  enableHTTPS: true\n");
    expect(ts.source.bindings()).toEqual({ p: "node2" });
  });

  it("a CA that did not sign the certificate fails the attempt with a scheduler error", async () => {
    const ts = await scheduleWith(`  tlsConfig:\n    caData: ${b64("other-ca.crt")}\n`);
    expect(ts.source.bindings()).toEqual({});
    expect(ts.failures.map((f) => f.reason)).toEqual(["SchedulerError"]);
    expect(ts.logger.entries.find((e) => e.level === "error")?.msg).toBe("Error scheduling pod; retrying");
  });

  it("a missing caFile is an error naming the extender and the file", async () => {
    await expect(scheduleWith("  tlsConfig:\n    caFile: /nonexistent/ca.crt\n")).rejects.toThrow(
      `extender "https://127.0.0.1:${port}/ext": reading tlsConfig.caFile /nonexistent/ca.crt`,
    );
  });
});

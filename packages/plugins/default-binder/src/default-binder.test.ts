// upstream: pkg/scheduler/framework/plugins/defaultbinder/default_binder_test.go
import { createPluginHarness, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { DefaultBinder } from "./default-binder";
import { defaultBinderPlugin } from "./index";

describe("TestDefaultBinder", () => {
  const testPod = makePod().name("foo").namespace("ns").obj();
  const testNode = "foohost.kubernetes.mydomain.com";
  const cases: { name: string; injectErr?: Error; wantBinding?: { pod: string; node: string } }[] = [
    { name: "successful", wantBinding: { pod: "ns/foo", node: testNode } },
    { name: "binding error", injectErr: new Error("binding error") },
  ];
  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({ plugin: defaultBinderPlugin });
    if (tc.injectErr) h.client.failWith("bind", tc.injectErr);
    const binder = h.plugin as DefaultBinder;
    const status = await binder.bind(h.newCycleState(), testPod, testNode);
    if (tc.injectErr) {
      expect(statusSummary(status)).toEqual({ code: "Error", reasons: ["binding error"] });
    } else {
      expect(status).toBeNull();
    }
    // The binding request (pods/binding of ns/foo, target Node testNode) is made in both cases;
    // upstream's fake client records the Binding only when it succeeds.
    const binds = h.client.calls.filter((c) => c.verb === "bind");
    expect(
      binds.map((c) => ({ pod: `${c.pod.metadata?.namespace}/${c.pod.metadata?.name}`, node: c.nodeName })),
    ).toEqual([{ pod: "ns/foo", node: testNode }]);
    if (tc.wantBinding) expect(binds[0]).toMatchObject({ nodeName: tc.wantBinding.node });
  });
});

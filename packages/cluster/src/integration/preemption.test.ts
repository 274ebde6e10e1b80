// upstream: test/integration/scheduler/preemption/preemption_test.go (kubernetes/kubernetes, v1.37
// line), on the assembled scheduler of the simulate path:
// - TestPreemption: the default profile plus upstream's tokenFilter (PreFilter + Filter, with
//   AddPod/RemovePod for preemption's dry run), on one node; the existing pods are scheduled
//   first, then the preemptor, and the expected victims are evicted. The async-preemption /
//   async-API-call / ClearingNominatedNodeNameAfterBinding variants of upstream are one run here,
//   with the release's defaults (async preemption on; the victims go before the next drain step).
// - TestPreemptionRespectsWaitingPod: a victim waiting at Permit is preempted there (not deleted)
//   and rescheduled on another node.
// - TestPreemptionRespectsBindingPod: a victim in PreBind has its binding cycle cancelled
//   (kubernetes/kubernetes#135502), is not deleted, and is rescheduled on another node.
// Not ported:
// - TestAsyncPreemption: in async-preemption.test.ts.
// - Other files of preemption/: extender_preemption_test.go (HTTP extender ProcessPreemption
//   with placeholder candidates, kubernetes#135486), node_capacity_decrease_test.go (a hint that
//   requeues a nominated pod when its node's allocatable shrinks; the engine has no such hint),
//   deferred_resize_preemption_test.go and async_preemption_failures_test.go (kubelet resize and
//   asynchronous API failures, which the simulator does not model), podgroup/ and
//   podgrouppreemption_test.go (gang scheduling, not implemented). misc/ and nominatednodename/
//   are in preemption-misc.test.ts and preemption-nominated-node.test.ts.
import type { Pod } from "@kubesched/api";
import {
  Code,
  type CycleState,
  definePlugin,
  type NodeInfo,
  type PluginDescriptor,
  type Registry,
  Status,
} from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeLabelSelector, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { addPods, boundNode, configOf, create, openSession } from "./integration-cluster.test-util";

const tokenFilterName = "tokenFilter";

/** upstream tokenFilter: `tokens` pods fit the cluster; AddPod/RemovePod move tokens in dry runs. */
interface TokenFilterState {
  tokens: number;
  unresolvable: boolean;
  enablePreFilter: boolean;
}
function tokenFilter(st: TokenFilterState): PluginDescriptor<unknown> {
  return definePlugin<unknown>({
    name: tokenFilterName,
    factory: () => {
      const pl = {
        name: () => tokenFilterName,
        filter: (_s: CycleState, pod: Pod, _ni: NodeInfo) => {
          if (st.tokens > 0) {
            st.tokens--;
            return null;
          }
          const code = st.unresolvable ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
          return new Status(code, `can't fit ${pod.metadata?.name ?? ""}`);
        },
        preFilter: () => (!st.enablePreFilter || st.tokens > 0 ? null : new Status(Code.Unschedulable)),
        preFilterExtensions: () => ({
          addPod: () => {
            st.tokens--;
            return null;
          },
          removePod: () => {
            st.tokens++;
            return null;
          },
        }),
      };
      return pl;
    },
  });
}

const lowPriority = 100;
const mediumPriority = 200;
const highPriority = 300;
const maxTokens = 1000;
const ns = "preemption";
const res = (cpu: string, memory: string) => ({ cpu, memory });
const defaultPodRes = res("100m", "100");
const pausePod = (name: string, priority: number, requests: Record<string, string>) =>
  makePod().name(name).namespace(ns).priority(priority).container("registry.k8s.io/pause:3.10").req(requests);
const antiAffinityTo = (value: string) => makeLabelSelector().in("pod", [value]).obj();

describe("TestPreemption", () => {
  const cases: {
    name: string;
    existingPods: Pod[];
    pod: Pod;
    initTokens: number;
    enablePreFilter?: boolean;
    unresolvable?: boolean;
    preemptedPodIndexes: number[];
  }[] = [
    {
      name: "basic pod preemption",
      initTokens: maxTokens,
      existingPods: [pausePod("victim-pod", lowPriority, res("400m", "200")).obj()],
      pod: pausePod("preemptor-pod", highPriority, res("300m", "200")).obj(),
      preemptedPodIndexes: [0],
    },
    {
      name: "basic pod preemption with filter",
      initTokens: 1,
      existingPods: [pausePod("victim-pod", lowPriority, res("200m", "200")).obj()],
      pod: pausePod("preemptor-pod", highPriority, res("200m", "200")).obj(),
      preemptedPodIndexes: [0],
    },
    {
      name: "basic pod preemption with preFilter",
      initTokens: 1,
      enablePreFilter: true,
      existingPods: [pausePod("victim-pod", lowPriority, res("200m", "200")).obj()],
      pod: pausePod("preemptor-pod", highPriority, res("200m", "200")).obj(),
      preemptedPodIndexes: [0],
    },
    {
      name: "basic pod preemption with unresolvable filter",
      initTokens: 1,
      unresolvable: true,
      existingPods: [pausePod("victim-pod", lowPriority, res("200m", "200")).obj()],
      pod: pausePod("preemptor-pod", highPriority, res("200m", "200")).obj(),
      preemptedPodIndexes: [],
    },
    {
      name: "preemption is performed to satisfy anti-affinity",
      initTokens: maxTokens,
      existingPods: [
        pausePod("pod-0", mediumPriority, defaultPodRes).label("pod", "p0").obj(),
        pausePod("pod-1", lowPriority, defaultPodRes)
          .label("pod", "p1")
          .podAntiAffinity("node", antiAffinityTo("preemptor"), "required")
          .obj(),
      ],
      pod: pausePod("preemptor-pod", highPriority, defaultPodRes)
        .label("pod", "preemptor")
        .podAntiAffinity("node", antiAffinityTo("p0"), "required")
        .obj(),
      preemptedPodIndexes: [0, 1],
    },
    {
      name: "preemption is not performed when anti-affinity is not satisfied",
      initTokens: maxTokens,
      existingPods: [
        pausePod("pod-0", mediumPriority, defaultPodRes).label("pod", "p0").obj(),
        pausePod("pod-1", highPriority, defaultPodRes)
          .label("pod", "p1")
          .podAntiAffinity("node", antiAffinityTo("preemptor"), "required")
          .obj(),
      ],
      pod: pausePod("preemptor-pod", highPriority, defaultPodRes)
        .label("pod", "preemptor")
        .podAntiAffinity("node", antiAffinityTo("p0"), "required")
        .obj(),
      preemptedPodIndexes: [],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const st: TokenFilterState = {
        tokens: tc.initTokens,
        unresolvable: tc.unresolvable ?? false,
        enablePreFilter: tc.enablePreFilter ?? false,
      };
      const registry: Registry = new Map([...inTreeRegistry, [tokenFilterName, tokenFilter(st)]]);
      const config = configOf(
        `profiles:
- schedulerName: default-scheduler
  plugins:
    filter: { enabled: [{ name: ${tokenFilterName} }] }
    preFilter: { enabled: [{ name: ${tokenFilterName} }] }
`,
        registry,
      );
      const s = await openSession(
        config,
        {
          namespaces: { [ns]: {} },
          nodes: [
            makeNode()
              .name("node1")
              .capacity({ pods: "32", cpu: "500m", memory: "500" })
              .label("node", "node1")
              .obj(),
          ],
        },
        { registry },
      );
      // upstream runPausePod: each existing pod runs before the next is created.
      for (const p of tc.existingPods) {
        addPods(s, p);
        await s.drain();
        expect(boundNode(s, p.metadata?.name ?? "", ns), `${p.metadata?.name} runs`).toBe("node1");
      }
      addPods(s, tc.pod);
      await s.drain();
      const preempted = s.cluster.events
        .filter((e) => e.reason === "Preempted" && e.related === `${ns}/preemptor-pod`)
        .map((e) => e.regarding);
      expect(preempted.sort()).toEqual(
        tc.preemptedPodIndexes.map((i) => `${ns}/${tc.existingPods[i]?.metadata?.name}`).sort(),
      );
      tc.existingPods.forEach((p, i) => {
        const name = p.metadata?.name ?? "";
        if (tc.preemptedPodIndexes.includes(i))
          expect(s.cluster.pods.get(ns, name), `${name} evicted`).toBeUndefined();
        else expect(boundNode(s, name, ns), `${name} still runs`).toBe("node1");
      });
      // upstream waits for the preemptor's NominatedNodeName; here every eviction names the node
      // it was for. (The simulator deletes victims at once, so the preemptor's next attempt runs
      // preemption again; with the tokenFilter's tokens spent by the dry runs it may find no
      // candidate and clear the nomination, as upstream would for deleted victims.)
      for (const e of s.cluster.events.filter((x) => x.reason === "Preempted")) {
        expect(e.note).toMatch(/ on node node1$/);
      }
    });
  }
});

describe("TestPreemptionRespectsWaitingPod", () => {
  it("a victim waiting at Permit is preempted there, not deleted, and rescheduled elsewhere", async () => {
    // upstream blockingPermitPlugin: the victim waits at Permit (the first time it gets there).
    const blockingPermitPluginName = "blocking-permit-plugin";
    let victimBlocked = false;
    const blockingPermit = definePlugin<unknown>({
      name: blockingPermitPluginName,
      factory: () => ({
        name: () => blockingPermitPluginName,
        permit: (_s: CycleState, p: Pod) => {
          if (p.metadata?.name !== "victim" || victimBlocked) return { status: null, timeoutMs: 0 };
          victimBlocked = true;
          return { status: new Status(Code.Wait), timeoutMs: 30_000 };
        },
      }),
    });
    const registry: Registry = new Map([...inTreeRegistry, [blockingPermitPluginName, blockingPermit]]);
    const config = configOf(
      `profiles:
- schedulerName: default-scheduler
  plugins:
    permit: { enabled: [{ name: ${blockingPermitPluginName} }] }
`,
      registry,
    );
    const s = await openSession(
      config,
      { nodes: [makeNode().name("big-node").capacity({ cpu: "2", memory: "2Gi" }).obj()] },
      { registry },
    );
    addPods(s, makePod().name("victim").priority(lowPriority).req({ cpu: "1", memory: "1Gi" }).obj());
    await s.sched.scheduleOne();
    expect(victimBlocked, "the victim reached WaitOnPermit").toBe(true);

    create(s, { nodes: [makeNode().name("small-node").capacity({ cpu: "1", memory: "1Gi" }).obj()] });
    addPods(s, makePod().name("preemptor").priority(highPriority).req({ cpu: "1.5", memory: "1.5Gi" }).obj());
    await s.drain();
    // The victim was not deleted: it went back to the queue and was scheduled on the small node;
    // the preemptor took the big node.
    expect(boundNode(s, "victim")).toBe("small-node");
    expect(boundNode(s, "preemptor")).toBe("big-node");
  });
});

describe("TestPreemptionRespectsBindingPod", () => {
  it("a victim in PreBind has its binding cancelled, is not deleted, and is rescheduled elsewhere", async () => {
    // upstream blockingPreBindPlugin: the victim blocks in PreBind (the first time it gets there)
    // until released; the preemptor passes.
    const blockingPreBindPluginName = "blocking-prebind-plugin";
    let victimBlocked = false;
    let release: () => void = () => {};
    const released = new Promise<null>((resolve) => {
      release = () => resolve(null);
    });
    const blockingPreBind = definePlugin<unknown>({
      name: blockingPreBindPluginName,
      factory: () => ({
        name: () => blockingPreBindPluginName,
        preBindPreFlight: () => null,
        preBind: (_s: CycleState, p: Pod) => {
          if (p.metadata?.name !== "victim" || victimBlocked) return Promise.resolve(null);
          victimBlocked = true;
          return released;
        },
      }),
    });
    const registry: Registry = new Map([...inTreeRegistry, [blockingPreBindPluginName, blockingPreBind]]);
    const config = configOf(
      `profiles:
- schedulerName: default-scheduler
  plugins:
    preBind: { enabled: [{ name: ${blockingPreBindPluginName} }] }
`,
      registry,
    );
    const s = await openSession(
      config,
      { nodes: [makeNode().name("big-node").capacity({ cpu: "2", memory: "2Gi" }).obj()] },
      { registry },
    );
    try {
      addPods(s, makePod().name("victim").priority(lowPriority).req({ cpu: "1", memory: "1Gi" }).obj());
      await s.sched.scheduleOne();
      await new Promise((r) => setTimeout(r, 0));
      expect(victimBlocked, "the victim reached PreBind").toBe(true);

      create(s, { nodes: [makeNode().name("small-node").capacity({ cpu: "1", memory: "1Gi" }).obj()] });
      addPods(
        s,
        makePod().name("preemptor").priority(highPriority).req({ cpu: "1.5", memory: "1.5Gi" }).obj(),
      );
      await s.drain();
      // The victim was not deleted: its binding was cancelled, it went back to the queue and was
      // scheduled on the small node; the preemptor took the big node.
      expect(s.cluster.pods.get("default", "victim"), "the victim still exists").toBeDefined();
      expect(boundNode(s, "victim")).toBe("small-node");
      expect(boundNode(s, "preemptor")).toBe("big-node");
    } finally {
      release();
    }
  });
});

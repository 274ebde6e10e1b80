// upstream: dynamicresources_test.go testPlugin's runner (setup, verify, listAll, update): each
// extension point in the scheduler's order on a real plugin built through the harness, the
// ResourceClaims behind a fake API server; after every step the stored claims, the assumed and
// the in-flight claims are compared with what the case expects.
import type { DeviceClass, Node, Pod, ResourceClaim, ResourceSlice } from "@kubesched/api";
import {
  Code,
  type CycleState,
  codeName,
  type Features,
  type NodeScore,
  NodeToStatus,
  type Status,
} from "@kubesched/framework";
import { createPluginHarness, fakeClock } from "@kubesched/testing";
import { expect } from "vitest";
import type { DynamicResources } from "./dynamic-resources";
import { dynamicResourcesPlugin } from "./index";
import { FakeClaimApi, workerNode } from "./test-fixtures";

/** An expected status: null for success, else the code name and message (upstream compares messages). */
export type WantStatus = null | { code?: string; message: string };

/** The expected outcome of one step (upstream `result`). */
export interface Result {
  status?: WantStatus;
  /** Applied to every stored claim as it was before the step. */
  changes?: (c: ResourceClaim) => ResourceClaim;
  /** The claim the assume cache must hold afterwards. */
  assumedClaim?: ResourceClaim;
  /** The claims whose allocation must be in flight afterwards. */
  inFlightClaims?: ResourceClaim[];
  /** Claims the step created (upstream `added`). */
  added?: ResourceClaim[];
  /** Claims the step deleted, by namespace and name (upstream `removed`). */
  removed?: ResourceClaim[];
}

export interface Want {
  preenqueue?: Result;
  prefilter?: Result;
  filter?: Record<string, Result>;
  scoreResult?: Record<string, number>;
  normalizeScoreResult?: NodeScore[];
  reserve?: Result;
  unreserve?: Result;
  prebindPreFlight?: WantStatus;
  prebind?: Result;
  postfilter?: Result;
  unreserveAfterBindFailure?: Result;
  unreserveBeforePreBind?: Result;
}

/** Changes applied to the stored claims before a step (upstream `prepare`). */
export interface Prepare {
  prebind?: (c: ResourceClaim) => ResourceClaim;
}

/** The time the cases run at (the harness' clock; PreBind's waits advance it). */
export const testNow = Date.parse("2026-11-26T12:00:00Z");

export interface TestPluginCase {
  args?: unknown;
  nodes?: Node[];
  pod: Pod;
  claims?: ResourceClaim[];
  classes?: DeviceClass[];
  slices?: ResourceSlice[];
  features?: Partial<Features>;
  kubernetesVersion?: string;
  prepare?: Prepare;
  /** Every pods/status patch fails with "patch error" (upstream failPatch). */
  failPatch?: boolean;
  /** Every ResourceClaim create fails with this message (upstream's create reactor). */
  failCreate?: string;
  /**
   * Filter runs under a cancelled cycle (upstream cancelFilter: its ctx cancelled with
   * `test canceling Filter` before the call).
   */
  cancelFilter?: boolean;
  want: Want;
}

/** What upstream's cmp ignores: UID, resourceVersion, allocationTimestamp, the device picked. */
function normalize(c: ResourceClaim): unknown {
  const out = structuredClone(c);
  if (out.metadata) {
    const { uid: _uid, resourceVersion: _rv, ...metadata } = out.metadata;
    out.metadata = metadata;
  }
  const allocation = out.status?.allocation;
  if (allocation) {
    delete allocation.allocationTimestamp;
    for (const r of allocation.devices?.results ?? []) (r as { device?: string }).device = "";
  }
  if (out.status && Object.keys(out.status).length === 0) delete out.status;
  return JSON.parse(JSON.stringify(out));
}

function sorted(claims: readonly ResourceClaim[]): unknown[] {
  return [...claims]
    .sort((a, b) =>
      `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(
        `${b.metadata?.namespace}/${b.metadata?.name}`,
      ),
    )
    .map(normalize);
}

function checkStatus(step: string, got: Status | null, want: WantStatus | undefined): void {
  const expected = want ?? null;
  if (expected === null) {
    expect(got ? `${codeName(got.code)}: ${got.message()}` : null, step).toBeNull();
    return;
  }
  expect(got, step).not.toBeNull();
  expect(got?.message(), step).toContain(expected.message);
  if (expected.code && got) expect(codeName(got.code), step).toBe(expected.code);
}

/** Runs one TestPlugin case through the extension points in the scheduler's order. */
export async function runTestPluginCase(tc: TestPluginCase): Promise<void> {
  const api = new FakeClaimApi();
  api.failPatch = tc.failPatch === true;
  api.failCreate = tc.failCreate ?? null;
  const clock = fakeClock(testNow);
  const h = await createPluginHarness({
    clock,
    plugin: dynamicResourcesPlugin,
    args: tc.args,
    nodes: tc.nodes ?? [workerNode],
    objects: { deviceClasses: tc.classes ?? [], resourceSlices: tc.slices ?? [] },
    features: {
      enableDRAPrioritizedList: false,
      enableDRAAdminAccess: false,
      enableDRADeviceTaints: false,
      ...tc.features,
    },
    client: api as never,
    ...(tc.kubernetesVersion ? { kubernetesVersion: tc.kubernetesVersion } : {}),
  });
  api.store = h.listers.resourceClaims;
  for (const c of tc.claims ?? []) api.create(c);
  const pl = h.plugin as DynamicResources;
  const state: CycleState = h.newCycleState();
  const stored = () => h.listers.resourceClaims.list();

  const verify = (
    step: string,
    want: Result | undefined,
    before: readonly ResourceClaim[],
    status: Status | null,
  ) => {
    checkStatus(step, status, want?.status);
    const change = want?.changes;
    const key = (c: ResourceClaim) => `${c.metadata?.namespace}/${c.metadata?.name}`;
    const removed = new Set((want?.removed ?? []).map(key));
    const expected = [
      ...(change ? before.map((c) => change(structuredClone(c))) : before),
      ...(want?.added ?? []),
    ].filter((c) => !removed.has(key(c)));
    expect(sorted(stored()), `${step}: stored claims`).toEqual(sorted(expected));
    // The scheduler's shared DRA manager (none with DynamicResourceAllocation off: nothing assumed or in flight).
    const tracker = h.framework.sharedDRAManager()?.resourceClaims() ?? null;
    const assumed = tracker?.assumedClaims() ?? [];
    if (want?.assumedClaim) {
      // upstream accepts the claim whether or not the informer has caught up with it.
      const m = want.assumedClaim.metadata;
      const latest = tracker?.get(m?.namespace ?? "", m?.name ?? "");
      expect(latest && normalize(latest), `${step}: assumed claim`).toEqual(normalize(want.assumedClaim));
    } else {
      expect(assumed, `${step}: assumed claims`).toEqual([]);
    }
    expect(sorted(tracker?.inFlightClaims() ?? []), `${step}: in-flight claims`).toEqual(
      sorted(want?.inFlightClaims ?? []),
    );
  };
  const snapshot = () => stored().map((c) => structuredClone(c));

  let before = snapshot();
  let status = pl.preEnqueue(tc.pod);
  verify("PreEnqueue", tc.want.preenqueue, before, status);
  if (status !== null) return;

  before = snapshot();
  const nodeInfos = h.snapshot.nodeInfos().list();
  const pre = pl.preFilter(state, tc.pod, nodeInfos);
  status = pre !== null && "code" in pre ? (pre as Status) : null;
  verify("PreFilter", tc.want.prefilter, before, status);
  let unschedulable = status !== null && status.code !== Code.Skip && status.code !== Code.Success;

  const potentialNodes: string[] = [];
  if (!unschedulable) {
    for (const ni of nodeInfos) {
      const n = ni.node?.metadata?.name ?? "";
      before = snapshot();
      if (tc.cancelFilter) {
        const c = new AbortController();
        c.abort(new Error("test canceling Filter"));
        state.signal = c.signal;
      }
      const s = pl.filter(state, tc.pod, ni);
      state.signal = undefined;
      verify(`Filter/${n}`, tc.want.filter?.[n], before, s);
      if (s === null) potentialNodes.push(n);
      if (s !== null && s.code === Code.Error) return; // An error aborts scheduling.
    }
    if (potentialNodes.length === 0) unschedulable = true;
  }

  const scores: NodeScore[] = [];
  if (!unschedulable && potentialNodes.length > 1) {
    for (const n of potentialNodes) {
      const got = pl.score(state, tc.pod, h.nodeInfo(n));
      expect(typeof got === "number" ? got : got.message(), `Score/${n}`).toBe(tc.want.scoreResult?.[n] ?? 0);
      scores.push({ name: n, score: typeof got === "number" ? got : 0 });
    }
    pl.scoreExtensions()?.normalizeScore(state, tc.pod, scores);
    expect(scores, "NormalizeScore").toEqual(tc.want.normalizeScoreResult ?? []);
  }

  let selected = "";
  if (!unschedulable && potentialNodes.length > 0) {
    selected =
      scores.length > 0
        ? scores.reduce((a, b) => (b.score > a.score ? b : a)).name
        : (potentialNodes[0] ?? "");
    before = snapshot();
    status = pl.reserve(state, tc.pod, selected);
    verify("Reserve", tc.want.reserve, before, status);
    if (status !== null) unschedulable = true;
  }

  if (selected) {
    if (unschedulable) {
      before = snapshot();
      pl.unreserve(state, tc.pod, selected);
      await new Promise((r) => setImmediate(r));
      verify("Unreserve", tc.want.unreserve, before, null);
      return;
    }
    if (tc.want.unreserveBeforePreBind) {
      before = snapshot();
      pl.unreserve(state, tc.pod, selected);
      await new Promise((r) => setImmediate(r));
      verify("UnreserveBeforePreBind", tc.want.unreserveBeforePreBind, before, null);
      return;
    }
    if (tc.prepare?.prebind) {
      const change = tc.prepare.prebind;
      for (const c of snapshot()) api.update(change(c));
    }
    before = snapshot();
    const flight = pl.preBindPreFlight(state, tc.pod, selected);
    checkStatus("PreBindPreFlight", flight, tc.want.prebindPreFlight);
    // PreBind may wait on the clock (binding conditions): move it to each timer as it is set.
    let settled = false;
    const pending = pl.preBind(state, tc.pod, selected).finally(() => {
      settled = true;
    });
    while (!settled) {
      await new Promise((r) => setImmediate(r));
      const next = clock.nextTimerAt();
      if (!settled && next !== null) clock.advanceTo(next);
    }
    const bound = await pending;
    verify("PreBind", tc.want.prebind, before, bound);
    if (tc.want.unreserveAfterBindFailure) {
      before = snapshot();
      pl.unreserve(state, tc.pod, selected);
      await new Promise((r) => setImmediate(r));
      verify("UnreserveAfterBindFailure", tc.want.unreserveAfterBindFailure, before, null);
    }
  } else if (potentialNodes.length === 0) {
    before = snapshot();
    const out = await pl.postFilter(state, tc.pod, new NodeToStatus());
    verify("PostFilter", tc.want.postfilter, before, out.status);
  }
}

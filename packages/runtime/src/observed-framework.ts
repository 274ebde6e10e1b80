// upstream: pkg/scheduler/framework/runtime/framework.go — NewFramework, and the extension point
// durations its Run*Plugins methods record (metricsRecorder, framework_extension_point_duration_
// seconds). Here the timing is a subclass that wraps the entry points, built only for an observer
// that implements onExtensionPoint; the Framework's own methods time nothing.
import type { Pod } from "@kubesched/api";
import type { ProfileConfig } from "@kubesched/config";
import {
  Code,
  type CycleState,
  type Diagnosis,
  type NodeInfo,
  type NodeToStatus,
  monotonicNow as now,
  type PostFilterOutput,
  type Registry,
  Status,
} from "@kubesched/framework";
import { Framework, type FrameworkOptions, type NodeScoresOutput, type PreFilterOutput } from "./framework";
import type { SchedulingObserver } from "./observer";

/** The status Filter's duration is labelled with when a node's Filter errored. */
const filterError = new Status(Code.Error);

function ignore(): void {}

/** A framework whose run*Plugins entry points report their duration to the observer. */
class ObservedFramework extends Framework {
  private readonly observer: SchedulingObserver;
  private readonly observe: NonNullable<SchedulingObserver["onExtensionPoint"]>;

  constructor(registry: Registry, opts: FrameworkOptions & { observer: SchedulingObserver }) {
    super(registry, opts);
    this.observer = opts.observer;
    this.observe = opts.observer.onExtensionPoint as NonNullable<SchedulingObserver["onExtensionPoint"]>;
  }

  private point(point: string, status: Status | null, start: number): void {
    this.observe.call(this.observer, this.profileName(), point, status, now() - start);
  }

  /** An asynchronous point, observed when it settles; the caller gets the same promise (no extra turn). */
  private settled<T>(
    point: string,
    p: Promise<T>,
    start: number,
    statusOf: (v: T) => Status | null,
  ): Promise<T> {
    p.then((v) => this.point(point, statusOf(v), start), ignore);
    return p;
  }

  override runPreFilterPlugins(state: CycleState, pod: Pod): PreFilterOutput {
    const start = now();
    const out = super.runPreFilterPlugins(state, pod);
    this.point("PreFilter", out.status, start);
    return out;
  }

  override runFilterPluginsOnNodes(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    start: number,
    numToFind: number,
    diagnosis: Diagnosis,
  ): { feasible: NodeInfo[]; error: Error | null } {
    const began = now();
    const out = super.runFilterPluginsOnNodes(state, pod, nodes, start, numToFind, diagnosis);
    this.point("Filter", out.error ? filterError : null, began);
    return out;
  }

  override runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
  ): Promise<PostFilterOutput> {
    const start = now();
    return this.settled(
      "PostFilter",
      super.runPostFilterPlugins(state, pod, nodeToStatus),
      start,
      (o) => o.status,
    );
  }

  override runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | null {
    const start = now();
    const s = super.runPreScorePlugins(state, pod, nodes);
    this.point("PreScore", s, start);
    return s;
  }

  override runScorePluginsOnNodes(
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    keepRawScores = false,
  ): NodeScoresOutput {
    const start = now();
    const out = super.runScorePluginsOnNodes(state, pod, nodes, keepRawScores);
    this.point("Score", out.status, start);
    return out;
  }

  override runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const start = now();
    const s = super.runReservePluginsReserve(state, pod, nodeName);
    this.point("Reserve", s, start);
    return s;
  }

  override runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    const start = now();
    super.runReservePluginsUnreserve(state, pod, nodeName);
    this.point("Unreserve", null, start);
  }

  override runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const start = now();
    const s = super.runPermitPlugins(state, pod, nodeName);
    this.point("Permit", s, start);
    return s;
  }

  override runPreBindPreFlights(state: CycleState, pod: Pod, nodeName: string): Status | null {
    const start = now();
    const s = super.runPreBindPreFlights(state, pod, nodeName);
    this.point("PreBindPreFlight", s, start);
    return s;
  }

  override runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    const start = now();
    return this.settled("PreBind", super.runPreBindPlugins(state, pod, nodeName), start, (s) => s);
  }

  override runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    const start = now();
    return this.settled("Bind", super.runBindPlugins(state, pod, nodeName), start, (s) => s);
  }

  override runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    const start = now();
    super.runPostBindPlugins(state, pod, nodeName);
    this.point("PostBind", null, start);
  }
}

/**
 * Builds a profile's framework (upstream NewFramework): instantiates every enabled plugin once
 * with its args (defaulted through its args spec when the profile has none), fills the
 * extension points, expands multiPoint, checks QueueSort/Bind counts and score weights.
 * Errors are thrown with upstream's messages. With an observer, its plugins are wrapped
 * (observesPlugins) and, when it implements onExtensionPoint, the entry points timed.
 */
export async function newFramework(
  registry: Registry,
  profile: ProfileConfig,
  opts: FrameworkOptions,
): Promise<Framework> {
  const observer = opts.observer;
  const f =
    observer?.onExtensionPoint !== undefined
      ? new ObservedFramework(registry, { ...opts, observer })
      : new Framework(registry, opts);
  await f.init(profile);
  return f;
}

// upstream: pkg/scheduler/framework/runtime/waiting_pods_map.go
import { type Pod, podUID } from "@kubesched/api";
import { formatDuration } from "@kubesched/config";
import { type Clock, Code, Status, type Timer, type WaitingPod } from "@kubesched/framework";

/** Pods waiting at Permit, by UID. One map may be shared by every profile, as upstream. */
export class WaitingPodsMap {
  private readonly pods = new Map<string, WaitingPodImpl>();

  add(wp: WaitingPodImpl): void {
    this.pods.set(podUID(wp.getPod()), wp);
  }

  remove(uid: string): void {
    this.pods.delete(uid);
  }

  get(uid: string): WaitingPodImpl | undefined {
    return this.pods.get(uid);
  }

  iterate(callback: (wp: WaitingPod) => void): void {
    for (const wp of this.pods.values()) callback(wp);
  }

  get size(): number {
    return this.pods.size;
  }
}

/**
 * A pod waiting at Permit. The first of allow-by-all, reject, preempt or a plugin's timeout
 * decides the outcome; later calls are no-ops (upstream's buffered channel of one).
 */
export class WaitingPodImpl implements WaitingPod {
  private readonly pendingPlugins = new Map<string, Timer>();
  private done = false;
  private resolveSignal!: (s: Status | null) => void;
  /** Resolves with the outcome: null (allowed), Unschedulable (rejected) or Error (preempted). */
  readonly signal: Promise<Status | null>;

  constructor(
    private readonly pod: Pod,
    pluginsMaxWaitTime: ReadonlyMap<string, number>,
    clock: Clock,
  ) {
    this.signal = new Promise((resolve) => {
      this.resolveSignal = resolve;
    });
    for (const [plugin, waitMs] of pluginsMaxWaitTime) {
      const timer = clock.setTimeout(() => {
        this.reject(
          plugin,
          `rejected due to timeout after waiting ${formatDuration(waitMs)} at plugin ${plugin}`,
        );
      }, waitMs);
      this.pendingPlugins.set(plugin, timer);
    }
  }

  getPod(): Pod {
    return this.pod;
  }

  getPendingPlugins(): string[] {
    return [...this.pendingPlugins.keys()];
  }

  allow(pluginName: string): void {
    const timer = this.pendingPlugins.get(pluginName);
    if (timer) {
      timer.cancel();
      this.pendingPlugins.delete(pluginName);
    }
    if (this.pendingPlugins.size !== 0) return;
    this.stop(null);
  }

  reject(pluginName: string, msg: string): boolean {
    return this.stop(new Status(Code.Unschedulable, msg).withPlugin(pluginName));
  }

  preempt(pluginName: string, msg: string): boolean {
    return this.stop(new Status(Code.Error, msg).withPlugin(pluginName));
  }

  private stop(s: Status | null): boolean {
    if (this.done) return false;
    this.done = true;
    for (const t of this.pendingPlugins.values()) t.cancel();
    this.resolveSignal(s);
    return true;
  }
}

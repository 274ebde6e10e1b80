import { Code, Status } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newTestScheduler, profile } from "./fake-source.test-util";
import { SchedulerMetrics } from "./metrics";

function lines(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(name));
}

describe("SchedulerMetrics", () => {
  it("plugin durations are histograms with upstream's labels and cumulative buckets", async () => {
    const m = new SchedulerMetrics();
    m.observePlugin("NodeResourcesFit", "Filter", null, 0.00001);
    m.observePlugin("NodeResourcesFit", "Filter", null, 0.00002);
    m.observePlugin("NodeResourcesFit", "Filter", new Status(Code.Unschedulable, "Insufficient cpu"), 1);
    const text = await m.text();
    expect(text).toContain("# TYPE scheduler_plugin_execution_duration_seconds histogram");
    const success = lines(text, "scheduler_plugin_execution_duration_seconds").filter((l) =>
      l.includes('status="Success"'),
    );
    expect(success[0]).toBe(
      'scheduler_plugin_execution_duration_seconds_bucket{plugin="NodeResourcesFit",extension_point="Filter",status="Success",le="0.00001"} 1',
    );
    expect(success).toContain(
      'scheduler_plugin_execution_duration_seconds_bucket{plugin="NodeResourcesFit",extension_point="Filter",status="Success",le="0.000022500000000000005"} 2',
    );
    expect(success).toContain(
      'scheduler_plugin_execution_duration_seconds_count{plugin="NodeResourcesFit",extension_point="Filter",status="Success"} 2',
    );
    expect(text).toContain(
      'scheduler_plugin_execution_duration_seconds_bucket{plugin="NodeResourcesFit",extension_point="Filter",status="Unschedulable",le="+Inf"} 1',
    );
  });

  it("extension point and attempt durations carry the profile", async () => {
    const m = new SchedulerMetrics();
    m.observeExtensionPoint("default-scheduler", "PreFilter", null, 0.0002);
    m.observeAttempt("scheduled", "default-scheduler", 0.003);
    m.observeAttempt("unschedulable", "default-scheduler", 0.003);
    const text = await m.text();
    expect(text).toContain(
      'scheduler_framework_extension_point_duration_seconds_count{extension_point="PreFilter",status="Success",profile="default-scheduler"} 1',
    );
    expect(text).toContain(
      'scheduler_scheduling_attempt_duration_seconds_bucket{result="scheduled",profile="default-scheduler",le="0.004"} 1',
    );
    expect(text).toContain(
      'scheduler_scheduling_attempt_duration_seconds_sum{result="unschedulable",profile="default-scheduler"} 0.003',
    );
  });
});

describe("metrics the plugins record through the assembled scheduler", () => {
  it("DefaultPreemption counts scheduler_preemption_attempts_total and observes scheduler_preemption_victims", async () => {
    const metrics = new SchedulerMetrics();
    const ts = await newTestScheduler({
      plugins: [],
      profiles: [
        profile({
          preFilter: ["NodeResourcesFit"],
          filter: ["NodeResourcesFit"],
          postFilter: ["DefaultPreemption"],
        }),
      ],
      nodes: [makeNode().name("node1").capacity({ cpu: "1", pods: "10" }).obj()],
      pods: [makePod().name("low").uid("low").node("node1").priority(1).req({ cpu: "1" }).obj()],
      metrics,
    });
    await ts.schedule(makePod().name("high").uid("high").priority(100).req({ cpu: "1" }).obj());
    const text = await metrics.text();
    expect(text).toContain("scheduler_preemption_attempts_total 1");
    expect(text).toContain("scheduler_preemption_victims_sum 1");
    expect(text).toContain("scheduler_preemption_victims_count 1");
  });
});

describe("opportunistic batching's metrics through the assembled scheduler", () => {
  it("scheduler_batch_attempts_total and scheduler_batch_cache_flushed_total, by profile", async () => {
    const metrics = new SchedulerMetrics();
    const ts = await newTestScheduler({
      plugins: [],
      profiles: [
        profile({
          preFilter: ["NodePorts"],
          filter: ["NodePorts"],
          preScore: ["TaintToleration"],
          score: [{ name: "TaintToleration", weight: 1 }],
        }),
      ],
      nodes: ["n1", "n2", "n3", "n4"].map((n) => makeNode().name(n).capacity({ pods: "10" }).obj()),
      metrics,
    });
    // Host port 80: one pod per node; the second and third pods take the first one's sorted nodes.
    for (const name of ["p1", "p2", "p3"]) {
      await ts.schedule(makePod().name(name).uid(name).hostPort(80).obj());
    }
    // Another signature while a node is left in the batch: the batch is dropped.
    await ts.schedule(makePod().name("other").uid("other").hostPort(81).obj());
    const text = await metrics.text();
    expect(lines(text, "scheduler_batch_attempts_total").sort()).toEqual([
      'scheduler_batch_attempts_total{profile="default-scheduler",result="hint_used"} 2',
      'scheduler_batch_attempts_total{profile="default-scheduler",result="no_hint"} 2',
    ]);
    expect(lines(text, "scheduler_batch_cache_flushed_total")).toEqual([
      'scheduler_batch_cache_flushed_total{profile="default-scheduler",reason="pod_incompatible"} 1',
    ]);
  });
});

// redactObject: what `kubesched snapshot` leaves out by default, wherever a pod spec sits.
import { describe, expect, it } from "vitest";
import { redactObject } from "./redact";

const env = () => [
  { name: "PASSWORD", value: "s3cret" },
  { name: "FROM_SECRET", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
];
const redactedEnv = [
  { name: "PASSWORD", value: "REDACTED" },
  { name: "FROM_SECRET", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
];
const annotations = () => ({
  "kubectl.kubernetes.io/last-applied-configuration": "{}",
  "team.example.com/pager": "555-0100",
  "pv.kubernetes.io/bind-completed": "yes",
  "scheduler.alpha.kubernetes.io/critical-pod": "",
});
const keptAnnotations = {
  "pv.kubernetes.io/bind-completed": "yes",
  "scheduler.alpha.kubernetes.io/critical-pod": "",
};

describe("redactObject", () => {
  it("a pod: managedFields, unread annotations and env values of every kind of container", () => {
    const pod = redactObject({
      kind: "Pod",
      metadata: { name: "p", annotations: annotations(), managedFields: [{ manager: "m" }] },
      spec: {
        containers: [{ name: "c", env: env() }],
        initContainers: [{ name: "i", env: env() }],
        ephemeralContainers: [{ name: "e", env: env() }],
      },
    });
    expect(pod.metadata).toEqual({ name: "p", annotations: keptAnnotations });
    expect(pod.spec.containers[0]?.env).toEqual(redactedEnv);
    expect(pod.spec.initContainers[0]?.env).toEqual(redactedEnv);
    expect(pod.spec.ephemeralContainers[0]?.env).toEqual(redactedEnv);
  });

  it("pod templates of workloads and CronJobs", () => {
    const template = () => ({
      metadata: { annotations: { "team.example.com/pager": "555-0100" } },
      spec: { containers: [{ name: "c", env: env() }] },
    });
    const deploy = redactObject({
      kind: "Deployment",
      metadata: { name: "d" },
      spec: { template: template() },
    });
    expect(deploy.spec.template).toEqual({
      metadata: {},
      spec: { containers: [{ name: "c", env: redactedEnv }] },
    });
    const cron = redactObject({
      kind: "CronJob",
      metadata: { name: "c" },
      spec: { jobTemplate: { metadata: { annotations: annotations() }, spec: { template: template() } } },
    });
    expect(cron.spec.jobTemplate.metadata).toEqual({ annotations: keptAnnotations });
    expect(cron.spec.jobTemplate.spec.template.spec.containers[0]?.env).toEqual(redactedEnv);
  });

  it("a node keeps its labels and what the scheduler reads; an object without annotations is unchanged", () => {
    const node = {
      kind: "Node",
      metadata: { name: "n", labels: { a: "b" } },
      status: { allocatable: { cpu: "1" } },
    };
    expect(redactObject(structuredClone(node))).toEqual(node);
  });
});

// `kubesched sweep FILE --emit-job`: a Kubernetes Indexed Job that runs the matrix as shards, one
// per completion index (`--shard $(JOB_COMPLETION_INDEX)/N`), in the project's image (Dockerfile,
// deploy/README.md). Snapshots outgrow a ConfigMap's 1 MiB, so the inputs come from a
// PersistentVolumeClaim holding a copy of the matrix file's folder at /data; each shard writes
// /data/results/shard-I.json there, and `kubesched sweep merge` combines them.
// upstream: Kubernetes' Indexed Job (batch/v1 Job completionMode Indexed, KEP-2214) and
// per-index backoff (backoffLimitPerIndex, KEP-3850; GA in 1.33).
import { basename, isAbsolute, relative, resolve } from "node:path";
import type { SweepMatrixFile } from "./sweep-matrix";

/** Where the Job mounts the claim holding the matrix folder's copy. */
export const jobDataDir = "/data";
/** The annotation the Job controller sets to the completion index, and the variable it fills. */
const completionIndexAnnotation = "batch.kubernetes.io/job-completion-index";
export const completionIndexVariable = "JOB_COMPLETION_INDEX";

export interface SweepJobOptions {
  name: string;
  image: string;
  claim: string;
  shards: number;
}

/** The matrix's paths that leave its folder: the Job sees only that folder's copy. */
export function pathsOutsideMatrixDir(m: SweepMatrixFile): string[] {
  const x = m.matrix;
  const fields: [string, string][] = [
    ...x.snapshots.map((s, i): [string, string] => [`snapshots[${i}]`, s]),
    ...x.configs.map((c, i): [string, string] => [`configs[${i}]`, c]).filter(([, c]) => c !== "default"),
    ...(x.capacity?.pods ?? []).map((p, i): [string, string] => [`capacity.pods[${i}]`, p]),
  ];
  return fields
    .filter(([, p]) => {
      const rel = relative(m.dir, resolve(m.dir, p));
      return isAbsolute(p) || rel === ".." || rel.startsWith("../") || isAbsolute(rel);
    })
    .map(
      ([field, p]) => `${m.file}: ${field}: ${p} is outside the matrix file's folder, which the Job mounts`,
    );
}

/** The Job's manifest (a batch/v1 Job object). */
export function sweepJob(m: SweepMatrixFile, o: SweepJobOptions) {
  const labels = { "app.kubernetes.io/name": "kubesched-sweep", "app.kubernetes.io/instance": o.name };
  const index = `$(${completionIndexVariable})`;
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: o.name,
      labels,
      annotations: { "kubesched.io/sweep-matrix": m.hash },
    },
    spec: {
      completionMode: "Indexed",
      completions: o.shards,
      parallelism: o.shards,
      backoffLimitPerIndex: 1,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, fsGroup: 65532 },
          containers: [
            {
              name: "sweep",
              image: o.image,
              args: [
                "sweep",
                `${jobDataDir}/${basename(m.file)}`,
                "--shard",
                `${index}/${o.shards}`,
                "--parallelism",
                "1",
                "--out",
                `${jobDataDir}/results/shard-${index}.json`,
              ],
              env: [
                {
                  name: completionIndexVariable,
                  valueFrom: {
                    fieldRef: { fieldPath: `metadata.annotations['${completionIndexAnnotation}']` },
                  },
                },
              ],
              resources: { requests: { cpu: "1", memory: "1Gi" } },
              volumeMounts: [{ name: "sweep", mountPath: jobDataDir }],
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ["ALL"] },
              },
            },
          ],
          volumes: [{ name: "sweep", persistentVolumeClaim: { claimName: o.claim } }],
        },
      },
    },
  };
}

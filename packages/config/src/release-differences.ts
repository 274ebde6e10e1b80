// What a user sees change between the releases kubesched emulates (1.33–1.37), besides the gate
// defaults of `feature-gate-table.ts`: one row per difference, with the upstream change, the first
// release that has it and the upstream code read. Plugins and the engine implement each row by
// reading `handle.kubernetesVersion()` or the gates; the README's table is checked against this.
import type { Release } from "./feature-gates";

/** One difference between releases. */
export interface ReleaseDifference {
  /** What changes, as a user sees it. */
  what: string;
  /** The upstream change: a kubernetes/kubernetes pull request, or the KEP whose gate moved. */
  change: string;
  /** The first release that behaves the new way. */
  since: Release;
  /** A feature gate when the difference follows its per-release default; null: ungated. */
  gate: string | null;
  /** The upstream code read to confirm it (repository@commit path). */
  read: string;
}

/** The differences, oldest first. */
export const releaseDifferences: readonly ReleaseDifference[] = [
  {
    what: "DynamicResources joins the default profile (multiPoint, weight 2, before DefaultPreemption); its PostFilter adds `no new claims to deallocate` to FitErrors of pods without claims",
    change: "KEP-4381 (DynamicResourceAllocation GA, on by default)",
    since: "1.34",
    gate: "DynamicResourceAllocation",
    read: "gate specs: versioned_feature_list.yaml at omeryahud/kubernetes@52e01d7; the plugin list: default_plugins.go applyFeatureGates as ported in default-plugins.ts (the index holds it only at kubernetes/kubernetes@0d725d5, 1.27: the same insertion before DefaultPreemption)",
  },
  {
    what: "Opportunistic batching: a pod with the same signature as the pod of the cycle before takes that cycle's next-best node (checked by Filter) when the node that pod took no longer fits it; profiles with default topology spread, a plugin that cannot sign or an extender never batch",
    change: "KEP-5598 (OpportunisticBatching beta, on by default)",
    since: "1.35",
    gate: "OpportunisticBatching",
    read: "pkg/scheduler/framework/runtime/batch.go at kubernetes/kubernetes@db8b216c; schedule_one.go findNodesThatFitPod / evaluateNominatedNode; frameworkImpl.SignPod",
  },
  {
    what: "TaintToleration no longer names the taint: `node(s) had untolerated taint(s)`; before, the first untolerated taint, `node(s) had untolerated taint {key: value}` (kubesched's 1.34 is 1.34 as released: a later 1.34 patch took the change too, kubernetes/kubernetes#135023)",
    change: "kubernetes/kubernetes#134740",
    since: "1.35",
    gate: null,
    read: "the PR's diff of taint_toleration.go Filter (October 2025) and its release-1.34 cherry-pick #135023; taint_toleration.go at the newest stored commit (fwk.NewStatus(UnschedulableAndUnresolvable, `node(s) had untolerated taint(s)`)); FailedScheduling messages posted from 1.34 clusters carrying both the named taint and the 1.34–1.36 `no new claims to deallocate` clause (tests/fixtures/real-messages)",
  },
  {
    what: "NodeResourcesBalancedAllocation scores the change in balance the pod causes, 50 + (50 + with − without) / 2 (no change: 75); before, the balance with the pod, (1 − std) × 100",
    change: "kubernetes/kubernetes#135573",
    since: "1.36",
    gate: null,
    read: "pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go at kubernetes/kubernetes@00fdb4f (1.35 table)",
  },
  {
    what: "NodeDeclaredFeatures joins the default profile (its gate turns on by default)",
    change: "KEP-5328 (NodeDeclaredFeatures beta, on by default)",
    since: "1.36",
    gate: "NodeDeclaredFeatures",
    read: "gate specs: the scheduler's 1.37 gate list (SetupCurrentKubernetesSpecificFeatureGates); the plugin list: default-plugins.ts (applyFeatureGates)",
  },
  {
    what: "DynamicResources' filter timeout is an Error naming the node (`node X: timed out trying to allocate devices`): the attempt ends and the pod retries from the backoff queue; before, the node was unschedulable for the pod (`timed out trying to allocate devices`) and another node that allocated in time could take it",
    change: "kubernetes/kubernetes#137607",
    since: "1.36",
    gate: null,
    read: "the PR's diff of dynamicresources.go Filter and dynamicresources_test.go (merged March 2026, before 1.36's code freeze); test/integration/dra core.go at kubernetes/kubernetes@cb6bddf4 (testFilterTimeout expects a SchedulerError)",
  },
  {
    what: "Opportunistic batching rescores the node the last pod took when the next pod still fits it, and hints the best of it and the cached nodes; before, the batch was dropped (one pod per node only)",
    change: "kubernetes/kubernetes#140289",
    since: "1.37",
    gate: null,
    read: "the newest stored batch.go (refreshHintCandidates, rescoreHintedNode) and batch_test.go (TestBatchRescore); test/integration/scheduler/batch/batch_test.go (rescoring scenarios)",
  },
  {
    what: "NodeResourcesFit and NodeResourcesBalancedAllocation sign pods while DRAExtendedResource is on, refusing only pods that request an extended resource a DeviceClass backs; before, they signed no pod while the gate was on (on by default from 1.36: no batching by default in 1.36)",
    change: "fit.go / balanced_allocation.go SignPod (pull request not identified)",
    since: "1.37",
    gate: null,
    read: "fit.go SignPod of the 1.36 cycle (with DeviceClassResolver, refuses every pod); the 1.37 integration batch_test.go batching with the default gates",
  },
  {
    what: "DynamicResources' PostFilter keeps its Unschedulable status but gives no reason when it did nothing (`no new claims to deallocate`, `still not schedulable`, `plugin disabled`): the clause of 1.34–1.36 FitErrors is gone, for pods with claims too",
    change: "kubernetes/kubernetes#140222",
    since: "1.37",
    gate: null,
    read: "the PR's description (merged July 2026: `plugin disabled` and `no new claims to deallocate` moved to V(5) logs, `still not schedulable` dropped); FailedScheduling events posted from minikube v1.37.0 clusters (October 2026) without the clause where 1.34–1.36 print it; the index holds dynamicresources.go only from before the change",
  },
  {
    what: "A preemption that chose a node adds `preemption: found a potential placement for pod on node X, preempting K victims` to the FailedScheduling message; before, a successful preemption added nothing",
    change: "kubernetes/kubernetes#140180",
    since: "1.37",
    gate: null,
    read: 'the PR\'s description and release note (merged July 2026) and its Evaluator change `fwk.NewStatus(fwk.Success, "found a potential placement for pod on node %v, preempting %d victims")`; FailedScheduling events posted from minikube v1.37.0 clusters (October 2026) carrying it; default_preemption.go at kubernetes/kubernetes@008b365 (1.37 development: the `preemption: ` prefix on any message)',
  },
];

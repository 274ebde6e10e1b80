// upstream: apis/scheduling/v1alpha1/types.go (PodGroup) and pkg/util/podgroup.go
import type { Pod, ResourceList } from "@kubesched/api";
import { type CustomObject, defineCustomResource, type FieldError, fieldErrors } from "@kubesched/framework";

/** The label naming a pod's PodGroup (upstream v1alpha1.PodGroupLabel). */
export const PodGroupLabel = "scheduling.x-k8s.io/pod-group";

/** scheduling.x-k8s.io/v1alpha1 PodGroup: the fields the plugin reads. */
export interface PodGroup extends CustomObject {
  spec?: {
    /** The minimal number of pods that must be scheduled together. */
    minMember?: number;
    /** The minimal resources of the group as a whole (a cluster-wide pre-check). */
    minResources?: ResourceList;
    /** Overrides the plugin's permitWaitingTimeSeconds for this group. */
    scheduleTimeoutSeconds?: number;
  };
  status?: Record<string, unknown>;
}

function nonNegativeInt(v: unknown): boolean {
  return v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= 0);
}

/** The PodGroup custom resource, as the CRD of scheduler-plugins declares it. */
export const podGroupResource = defineCustomResource<PodGroup>({
  group: "scheduling.x-k8s.io",
  version: "v1alpha1",
  resource: "podgroups",
  kind: "PodGroup",
  namespaced: true,
  validate(pg): FieldError[] {
    const errs: FieldError[] = [];
    const spec = pg.spec ?? {};
    // upstream CRD: minMember has +kubebuilder:validation:Minimum=1 (0 when omitted)
    if (!nonNegativeInt(spec.minMember)) {
      errs.push(fieldErrors.invalid("spec.minMember", spec.minMember, "must be a non-negative integer"));
    }
    if (!nonNegativeInt(spec.scheduleTimeoutSeconds)) {
      errs.push(
        fieldErrors.invalid(
          "spec.scheduleTimeoutSeconds",
          spec.scheduleTimeoutSeconds,
          "must be a non-negative integer",
        ),
      );
    }
    if (
      spec.minResources !== undefined &&
      (typeof spec.minResources !== "object" || spec.minResources === null)
    ) {
      errs.push(
        fieldErrors.invalid(
          "spec.minResources",
          spec.minResources,
          "must be a map of resource name to quantity",
        ),
      );
    }
    return errs;
  },
});

/** upstream util.GetPodGroupLabel. */
export function podGroupLabel(pod: Pod): string {
  return pod.metadata?.labels?.[PodGroupLabel] ?? "";
}

/** upstream util.GetPodGroupFullName: `namespace/name`, "" without the label. */
export function podGroupFullName(pod: Pod): string {
  const name = podGroupLabel(pod);
  return name ? `${pod.metadata?.namespace ?? ""}/${name}` : "";
}

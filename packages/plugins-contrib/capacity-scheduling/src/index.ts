// @kubesched/plugin-capacity-scheduling — kubernetes-sigs/scheduler-plugins pkg/capacityscheduling
import { definePlugin } from "@kubesched/framework";
import { CapacityScheduling, name } from "./capacity-scheduling";
import { elasticQuotaResource } from "./elastic-quota";

export {
  CapacityScheduling,
  ElasticQuotaSnapshotState,
  ErrReasonTerminatingPod,
  elasticQuotaSnapshotKey,
  name,
  Preemptor,
  PreFilterState,
  preFilterStateKey,
} from "./capacity-scheduling";
export {
  cmp,
  cmp2,
  computePodResourceRequest,
  type ElasticQuota,
  ElasticQuotaInfo,
  ElasticQuotaInfos,
  elasticQuotaResource,
  LowerBoundOfMin,
  UpperBoundOfMax,
} from "./elastic-quota";

/** The CapacityScheduling plugin (no args); it reads ElasticQuotas. */
export const capacitySchedulingPlugin = definePlugin({
  name,
  factory: (_args, handle) => new CapacityScheduling(handle),
  customResources: [elasticQuotaResource],
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-capacity-scheduling` loads. */
export default capacitySchedulingPlugin;

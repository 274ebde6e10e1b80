// upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go

/**
 * The Filter reason when a node has a NoSchedule/NoExecute taint the pod does not tolerate, from
 * Kubernetes 1.35 (kubernetes/kubernetes#134740: taint keys and values can be sensitive, so the
 * message no longer names the taint; cherry-picked to a 1.34 patch release, #135023).
 */
export const ErrReasonUntoleratedTaint = "node(s) had untolerated taint(s)";

/**
 * The reason before 1.35 (1.33 and 1.34 as released): the first untolerated taint, as upstream's
 * `fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value)`.
 */
export function errReasonUntoleratedTaintNamed(taint: { key: string; value?: string }): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;
}

// upstream: staging/src/k8s.io/kube-scheduler/extender/v1/types.go: the responses an extender
// sends, declared once as the Go types they are decoded into (go-json.ts). The v1 types carry no
// json tags, so their field names are the Go names, which encoding/json also matches
// case-insensitively ("nodenames", "failedNodes", "score" work as well); the core types they
// hold (NodeList) have tags.
import { type TSchema, type TUnion, Type } from "@sinclair/typebox";

/** A Go pointer: null is nil. */
const Pointer = <T extends TSchema>(t: T): TUnion<[T, ReturnType<typeof Type.Null>]> =>
  Type.Union([t, Type.Null()]);

const Int64 = Type.Integer({ format: "int64" });

/**
 * The part of core/v1 NodeList the scheduler reads back from a filter answer: the nodes' names.
 * Other fields of the nodes are not decoded (Go would also check their types).
 */
const NodeList = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { metadata: Type.Object({ name: Type.String() }, { goType: "v1.ObjectMeta" }) },
        { goType: "v1.Node" },
      ),
    ),
  },
  { goType: "v1.NodeList" },
);

const FailedNodesMap = Type.Record(Type.String(), Type.String(), { goType: "v1.FailedNodesMap" });

/** What a filter call answers (upstream ExtenderFilterResult). */
export const ExtenderFilterResult = Type.Object(
  {
    Nodes: Pointer(NodeList),
    NodeNames: Pointer(Type.Array(Type.String())),
    FailedNodes: FailedNodesMap,
    FailedAndUnresolvableNodes: FailedNodesMap,
    Error: Type.String(),
  },
  { goType: "v1.ExtenderFilterResult" },
);

/** What a prioritize call answers (upstream HostPriorityList: Score is an int64). */
export const HostPriorityList = Type.Array(
  Type.Object({ Host: Type.String(), Score: Int64 }, { goType: "v1.HostPriority" }),
  { goType: "v1.HostPriorityList" },
);

const MetaVictims = Type.Object(
  {
    Pods: Type.Array(Pointer(Type.Object({ UID: Type.String() }, { goType: "v1.MetaPod" }))),
    NumPDBViolations: Int64,
  },
  { goType: "v1.MetaVictims" },
);

/** What a preempt call answers (upstream ExtenderPreemptionResult). */
export const ExtenderPreemptionResult = Type.Object(
  { NodeNameToMetaVictims: Type.Record(Type.String(), Pointer(MetaVictims)) },
  { goType: "v1.ExtenderPreemptionResult" },
);

/** What a bind call answers (upstream ExtenderBindingResult). */
export const ExtenderBindingResult = Type.Object(
  { Error: Type.String() },
  { goType: "v1.ExtenderBindingResult" },
);

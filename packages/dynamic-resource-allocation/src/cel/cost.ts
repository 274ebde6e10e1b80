// CEL cost: the worst-case estimate at compile time and the actual cost with its limit at run
// time, built on top of @marcbachmann/cel-js (which tracks neither). upstream: cel-go
// checker/cost.go (the estimator, over the macros' comprehension expansions),
// interpreter/runtimecost.go (the tracker), k8s.io/apiserver/pkg/cel/library/cost.go (the
// Kubernetes functions) and dynamic-resource-allocation/cel/compile.go (sizeEstimator: the
// maximum sizes of the `device` fields; draCostEstimator: `includes`).
import {
  AttributeValues,
  attributeLists,
  celTypeName,
  ResourceSliceMaxAttributeValuesPerDevice,
  withoutDefault,
} from "./environment";

/** A node of a checked cel-js AST, as far as cost needs it. */
export interface CelNode {
  readonly op: string;
  readonly args: unknown;
  readonly checkedType?: { readonly kind: string; readonly name: string };
  readonly meta: {
    readonly alternate?: CelNode;
    readonly macro?: { evaluate(ev: unknown, macro: unknown, ctx: unknown): unknown };
    readonly evaluate: (ev: unknown, ast: unknown, ctx: unknown) => unknown;
  };
  evaluate: (ev: unknown, ast: unknown, ctx: unknown) => unknown;
}

// cel-go common/cost.go
const StringTraversalCostFactor = 0.1;
const RegexStringLengthCostFactor = 0.25;
const ListCreateBaseCost = 10;
const MapCreateBaseCost = 30;
const SelectAndIdentCost = 1;
const PresenceTestCost = 1;

// k8s.io/api/resource/v1 limits the sizes of what a device holds.
const DeviceMaxDomainLength = 63;
const DeviceMaxIDLength = 32;
const DriverNameMaxLength = 63;
const DeviceAttributeMaxValueLength = 64;
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32;

/** Unknown or unbounded: cel-go's math.MaxUint64. */
const Unbounded = Number.POSITIVE_INFINITY;

interface DeclType {
  readonly maxElements: number;
  readonly fields?: Readonly<Record<string, DeclType>>;
  readonly key?: DeclType;
  readonly elem?: DeclType;
}

// The newest device type (compile.go: deviceTypeV136ConsumableCapacityListTypeAttributes):
// an attribute is a scalar or a list, so its size is the larger of both limits.
const attributeType: DeclType = {
  maxElements: Math.max(DeviceAttributeMaxValueLength, ResourceSliceMaxAttributeValuesPerDevice),
};
const domainType: DeclType = { maxElements: DeviceMaxDomainLength };
const idType: DeclType = { maxElements: DeviceMaxIDLength };
const mapOf = (key: DeclType, elem: DeclType): DeclType => ({
  maxElements: ResourceSliceMaxAttributesAndCapacitiesPerDevice,
  key,
  elem,
});
const deviceType: DeclType = {
  maxElements: 0,
  fields: {
    driver: { maxElements: DriverNameMaxLength },
    allowMultipleAllocations: { maxElements: 1 },
    attributes: mapOf(domainType, mapOf(idType, attributeType)),
    capacity: mapOf(domainType, mapOf(idType, { maxElements: 0 })),
  },
};

/** compile.go sizeEstimator.EstimateSize: the maximum size of what a field path reaches. */
function sizeOfPath(path: readonly string[]): number | undefined {
  if (path[0] !== "device") return undefined;
  let node = deviceType;
  for (const name of path.slice(1)) {
    let next: DeclType | undefined;
    if (name === "@items" || name === "@values") next = node.elem;
    else if (name === "@keys") next = node.key;
    else next = node.fields?.[name] ?? (node.elem === attributeType ? attributeType : undefined);
    if (next === undefined) return undefined;
    node = next;
  }
  return node.maxElements;
}

const scalarTypes = new Set([
  "bool",
  "int",
  "uint",
  "double",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
]);

const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b);
/** Traversing one string for each position of another (contains, indexOf). */
const traversals = (a: number, b: number): number =>
  mul(factor(a, StringTraversalCostFactor), factor(b, StringTraversalCostFactor));
const factor = (size: number, f: number): number => (size === Unbounded ? Unbounded : Math.ceil(size * f));

function typeOf(node: CelNode): { kind: string; name: string } {
  return node.checkedType ?? { kind: "dyn", name: "dyn" };
}

const isNode = (v: unknown): v is CelNode =>
  typeof v === "object" && v !== null && typeof (v as { op?: unknown }).op === "string";

/** The callee, receiver and arguments of a call node. */
function callParts(node: CelNode): { name: string; target: CelNode | null; args: CelNode[] } {
  const a = node.args as unknown[];
  if (node.op === "rcall") return { name: a[0] as string, target: a[1] as CelNode, args: a[2] as CelNode[] };
  return { name: a[0] as string, target: null, args: a[1] as CelNode[] };
}

/** Kubernetes' library functions that parse their string argument: linear in its length. */
const parsingFunctions = new Set(["quantity", "isQuantity", "semver", "isSemver", "url", "isURL"]);

const quantifierMacros = new Set(["all", "exists", "exists_one", "map", "filter"]);

/** Whether a call node is the cel.bind macro. */
export function isBind(node: CelNode): boolean {
  if (node.op !== "rcall") return false;
  const { name, target } = callParts(node);
  return name === "bind" && target?.op === "id" && target.args === "cel";
}

/** Whether a call node is one of the comprehension macros. */
export function comprehensionMacro(node: CelNode): string | undefined {
  if (node.op !== "rcall" || node.meta.alternate === undefined) return undefined;
  const { name } = callParts(node);
  return quantifierMacros.has(name) ? name : undefined;
}

/**
 * The worst-case cost of a checked expression, as cel-go's EstimateCost with Kubernetes' library
 * estimator and DRA's size estimator would compute it (the maximum of the range).
 */
export function estimateCost(root: CelNode): number {
  const paths = new Map<CelNode, readonly string[]>();
  const computedSizes = new Map<CelNode, number>();
  const scopes: Map<string, readonly string[] | null>[] = [];

  const lookupVariable = (name: string): readonly string[] | null | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const scope = scopes[i] as Map<string, readonly string[] | null>;
      if (scope.has(name)) return scope.get(name);
    }
    return undefined;
  };

  const sizeOf = (node: CelNode): number => {
    const computed = computedSizes.get(node);
    if (computed !== undefined) return computed;
    if (node.op === "value") {
      const v = node.args;
      if (typeof v === "string") return [...v].length;
      if (v instanceof Uint8Array) return v.length;
    }
    if (node.op === "list" || node.op === "map") return (node.args as unknown[]).length;
    const path = paths.get(node);
    const fromPath = path === undefined ? undefined : sizeOfPath(path);
    if (fromPath !== undefined) return fromPath;
    if (scalarTypes.has(typeOf(node).name)) return 1;
    return Unbounded;
  };

  const sum = (nodes: readonly CelNode[]): number => nodes.reduce((acc, n) => acc + cost(n), 0);

  const addPath = (node: CelNode, base: CelNode, suffix: string): void => {
    const p = paths.get(base);
    if (p !== undefined) paths.set(node, [...p, suffix]);
  };

  // cel-go: equality and ordering of strings and bytes traverse the shorter operand.
  const traversalCompare = (a: CelNode, b: CelNode): number => {
    const smallest = Math.min(sizeOf(a), sizeOf(b));
    return factor(smallest, StringTraversalCostFactor);
  };

  const couldBe = (node: CelNode, names: readonly string[]): boolean => {
    const t = typeOf(node);
    return t.kind === "dyn" || names.includes(t.name);
  };

  const functionCost = (name: string, target: CelNode | null, args: CelNode[], node: CelNode): number => {
    const a0 = args[0];
    if (parsingFunctions.has(name) && a0) return factor(sizeOf(a0), StringTraversalCostFactor);
    switch (name) {
      case "matches": {
        // The receiver form s.matches(re) and the global matches(s, re) cost the same.
        const s = target ?? a0;
        const re = target ? a0 : args[1];
        if (s && re) {
          const str = factor(sizeOf(s) + 1, StringTraversalCostFactor);
          return mul(str, factor(sizeOf(re), RegexStringLengthCostFactor));
        }
        break;
      }
      case "find":
      case "findAll":
        if (target && a0) {
          computedSizes.set(node, sizeOf(target));
          return mul(
            factor(sizeOf(target), StringTraversalCostFactor),
            factor(sizeOf(a0), RegexStringLengthCostFactor),
          );
        }
        break;
      case "contains":
        if (target && a0 && typeOf(target).name !== "list") {
          return traversals(sizeOf(target), sizeOf(a0));
        }
        break;
      case "startsWith":
      case "endsWith":
        if (a0) return factor(sizeOf(a0), StringTraversalCostFactor);
        break;
      case "split":
        if (target) {
          const literal = args[1]?.op === "value" ? args[1].args : undefined;
          computedSizes.set(node, typeof literal === "bigint" ? Number(literal) : sizeOf(target));
          return factor(sizeOf(target), 2 * StringTraversalCostFactor);
        }
        break;
      case "lowerAscii":
      case "upperAscii":
      case "substring":
      case "trim":
      case "reverse":
      case "charAt":
      case "replace":
        if (target) {
          computedSizes.set(node, sizeOf(target));
          return factor(sizeOf(target), StringTraversalCostFactor);
        }
        break;
      case "indexOf":
      case "lastIndexOf":
        if (target && a0) {
          if (typeOf(target).kind === "list") return sizeOf(target);
          return traversals(sizeOf(target), sizeOf(a0));
        }
        break;
      case "isSorted":
      case "sum":
      case "min":
      case "max":
        if (target) return sizeOf(target);
        break;
      case "join":
        if (target) return factor(sizeOf(target), StringTraversalCostFactor);
        break;
      case "includes":
        // compile.go draCostEstimator: linear in the longest list attribute.
        if (target) return ResourceSliceMaxAttributeValuesPerDevice;
        break;
      case "asList":
        // A list of at most an attribute's size.
        if (target) computedSizes.set(node, attributeType.maxElements);
        break;
    }
    return 1;
  };

  const comprehension = (node: CelNode, macro: string): number => {
    const { target, args } = callParts(node);
    const iterable = target as CelNode;
    const range = cost(iterable);
    const iterVar = (args[0] as CelNode).args as string;
    const kind = typeOf(iterable).kind;
    const base = paths.get(iterable);
    const iterPath =
      base === undefined
        ? null
        : kind === "list"
          ? [...base, "@items"]
          : kind === "map"
            ? [...base, "@keys"]
            : null;
    scopes.push(new Map([[iterVar, iterPath]]));
    const argCosts = args.slice(1).map((a) => cost(a));
    scopes.pop();
    const rangeCount = sizeOf(iterable);
    const predicate = argCosts[0] ?? 0;
    // accuInit + result, loopCondition + loopStep of cel-go's expansion (parser/macro.go).
    let once: number;
    let perItem: number;
    switch (macro) {
      case "all": // init true; cond @not_strictly_false(@result); step @result && P; result @result
        once = 1;
        perItem = 2 + 1 + predicate;
        break;
      case "exists": // cond @not_strictly_false(!@result); step @result || P
        once = 1;
        perItem = 3 + 1 + predicate;
        break;
      case "exists_one": // init 0; step P ? @result + 1 : @result; result @result == 1
        once = 2;
        perItem = predicate + 2;
        break;
      case "map": // init []; step @result + [T] (or P ? @result + [T] : @result)
        once = ListCreateBaseCost + 1;
        perItem = args.length === 3 ? predicate + (argCosts[1] ?? 0) + 12 : predicate + 12;
        computedSizes.set(node, rangeCount);
        break;
      default: // filter: step P ? @result + [x] : @result
        once = ListCreateBaseCost + 1;
        perItem = predicate + 13;
        computedSizes.set(node, rangeCount);
    }
    return range + once + mul(rangeCount, perItem);
  };

  const cost = (node: CelNode): number => {
    const args = node.args;
    switch (node.op) {
      case "value":
        return 0;
      case "id": {
        const name = args as string;
        const bound = lookupVariable(name);
        if (bound === undefined) paths.set(node, [name]);
        else if (bound !== null) paths.set(node, bound);
        return SelectAndIdentCost;
      }
      case ".":
      case ".?": {
        const [operand, field] = args as [CelNode, string];
        let c = cost(operand);
        const kind = typeOf(operand).kind;
        if (kind === "map" || kind === "message") c += SelectAndIdentCost;
        addPath(node, operand, field);
        return c;
      }
      case "[]":
      case "[?]": {
        const [operand, index] = args as [CelNode, CelNode];
        const c = cost(operand) + cost(index) + 1;
        const kind = typeOf(operand).kind;
        if (kind === "list") addPath(node, operand, "@items");
        else if (kind === "map") addPath(node, operand, "@values");
        return c;
      }
      case "list":
        return ListCreateBaseCost + sum(args as CelNode[]);
      case "map":
        return (
          MapCreateBaseCost +
          (args as [CelNode, CelNode][]).reduce((acc, [k, v]) => acc + cost(k) + cost(v), 0)
        );
      case "&&":
      case "||":
        return sum(args as CelNode[]);
      case "?:": {
        const [c, t, f] = args as [CelNode, CelNode, CelNode];
        const out = cost(c) + Math.max(cost(t), cost(f));
        computedSizes.set(node, Math.max(sizeOf(t), sizeOf(f)));
        return out;
      }
      case "!_":
      case "-_":
        return 1 + cost(args as CelNode);
      case "==":
      case "!=": {
        const [a, b] = args as [CelNode, CelNode];
        return sum([a, b]) + traversalCompare(a, b);
      }
      case "<":
      case "<=":
      case ">":
      case ">=": {
        const [a, b] = args as [CelNode, CelNode];
        const argCost = sum([a, b]);
        const numeric = ["int", "uint", "double"];
        let fn = 0;
        if (couldBe(a, numeric) && couldBe(b, numeric)) fn = 1;
        for (const t of ["string", "bytes"]) {
          if (couldBe(a, [t]) && couldBe(b, [t])) fn = Math.max(fn, traversalCompare(a, b));
        }
        if (fn === 0) fn = 1;
        return argCost + fn;
      }
      case "in": {
        const [a, b] = args as [CelNode, CelNode];
        const argCost = sum([a, b]);
        const kind = typeOf(b).kind;
        if (kind === "list") return argCost + sizeOf(b);
        if (kind === "map") return argCost + 1;
        return argCost + Math.max(1, sizeOf(b));
      }
      case "+": {
        const [a, b] = args as [CelNode, CelNode];
        const argCost = sum([a, b]);
        const t = typeOf(node);
        if (t.name === "string" || t.name === "bytes" || t.kind === "list") {
          const size = sizeOf(a) + sizeOf(b);
          computedSizes.set(node, size);
          return argCost + (t.kind === "list" ? 1 : factor(size, StringTraversalCostFactor));
        }
        return argCost + 1;
      }
      case "call":
      case "rcall": {
        if (isBind(node)) {
          const [, , bindArgs] = args as [string, CelNode, CelNode[]];
          const [v, init, exp] = bindArgs as [CelNode, CelNode, CelNode];
          const initCost = cost(init);
          scopes.push(new Map([[v.args as string, null]]));
          const expCost = cost(exp);
          scopes.pop();
          // cel.bind expands to a comprehension over an empty list.
          return ListCreateBaseCost + initCost + expCost;
        }
        const macro = comprehensionMacro(node);
        if (macro !== undefined) return comprehension(node, macro);
        const { name, target, args: fnArgs } = callParts(node);
        if (name === "has" && node.op === "call") {
          const select = fnArgs[0] as CelNode;
          return PresenceTestCost + cost((select.args as [CelNode])[0]);
        }
        const targetCost = target ? cost(target) : 0;
        return targetCost + sum(fnArgs) + functionCost(name, target, fnArgs, node);
      }
      default:
        return sum(Array.isArray(args) ? (args as unknown[]).filter(isNode) : []);
    }
  };

  return cost(root);
}

/** Thrown when an evaluation goes over its cost limit (cel-go's message). */
export class CostLimitExceededError extends Error {
  constructor() {
    super("operation cancelled: actual cost limit exceeded");
    this.name = "CostLimitExceededError";
  }
}

/** Thrown when the caller's signal aborts an evaluation (cel-go's message plus the cause). */
export class InterruptedError extends Error {
  constructor(cause: unknown) {
    super(`operation interrupted: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "InterruptedError";
  }
}

/** The state of one evaluation. */
export class CostTracker {
  cost = 0;
  failure: Error | undefined;
  readonly values = new Map<CelNode, unknown>();
  constructor(
    readonly limit: number,
    readonly signal: AbortSignal | undefined,
  ) {}

  charge(amount: number): void {
    this.cost += amount;
    if (this.failure === undefined && this.cost > this.limit) this.failure = new CostLimitExceededError();
    if (this.failure !== undefined) throw this.failure;
  }

  checkInterrupt(): void {
    if (this.failure === undefined && this.signal?.aborted)
      this.failure = new InterruptedError(this.signal.reason);
    if (this.failure !== undefined) throw this.failure;
  }
}

let current: CostTracker | undefined;

/** Runs one evaluation with its tracker (evaluation is synchronous: one tracker at a time). */
export function withTracker<T>(tracker: CostTracker, evaluate: () => T): T {
  const previous = current;
  current = tracker;
  try {
    return evaluate();
  } finally {
    current = previous;
  }
}

const sizeOfValue = (v: unknown): number => {
  if (typeof v === "string") return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  return 1;
};

/** The actual cost of one node once its value is known (cel-go's CostTracker, per step). */
function actualCost(node: CelNode, tracker: CostTracker): number {
  const args = node.args;
  const value = (n: unknown): unknown => tracker.values.get(n as CelNode);
  switch (node.op) {
    case "value":
    case "&&":
    case "||":
    case "?:":
    case "comprehension":
      return 0;
    case "id":
    case "accuValue":
      return SelectAndIdentCost;
    case "accuInc": // @result + 1
      return 2;
    case "accuPush": // @result + [x]
      return SelectAndIdentCost + ListCreateBaseCost + 1;
    case ".":
    case ".?": {
      const kind = typeOf((args as [CelNode])[0]).kind;
      return kind === "map" || kind === "message" ? SelectAndIdentCost : 0;
    }
    case "list":
      return ListCreateBaseCost;
    case "map":
      return MapCreateBaseCost;
    case "==":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const [a, b] = (args as [CelNode, CelNode]).map(value);
      if (typeof a === "string" && typeof b === "string") {
        return factor(Math.min(sizeOfValue(a), sizeOfValue(b)), StringTraversalCostFactor);
      }
      return 1;
    }
    case "in": {
      const b = value((args as [CelNode, CelNode])[1]);
      return Array.isArray(b) ? b.length : 1;
    }
    case "+": {
      const [a, b] = (args as [CelNode, CelNode]).map(value);
      if (typeof a === "string" && typeof b === "string") {
        return factor(sizeOfValue(a) + sizeOfValue(b), StringTraversalCostFactor);
      }
      return 1;
    }
    case "call":
    case "rcall": {
      if (isBind(node)) return ListCreateBaseCost;
      const macro = comprehensionMacro(node);
      if (macro === "exists_one") return 2;
      if (macro !== undefined) return 1;
      const { name, target, args: fnArgs } = callParts(node);
      const t = target ? value(target) : undefined;
      const a0 = fnArgs[0] ? value(fnArgs[0]) : undefined;
      if (parsingFunctions.has(name)) return factor(sizeOfValue(a0), StringTraversalCostFactor);
      switch (name) {
        case "matches": {
          // The receiver form s.matches(re) and the global matches(s, re) cost the same.
          const a1 = !target && fnArgs[1] ? value(fnArgs[1]) : undefined;
          if (target || fnArgs.length === 2) {
            return mul(
              factor(sizeOfValue(target ? t : a0) + 1, StringTraversalCostFactor),
              factor(sizeOfValue(target ? a0 : a1), RegexStringLengthCostFactor),
            );
          }
          return 1;
        }
        case "find":
        case "findAll":
          return mul(
            factor(sizeOfValue(t), StringTraversalCostFactor),
            factor(sizeOfValue(a0), RegexStringLengthCostFactor),
          );
        case "contains":
          if (typeof t === "string") {
            return traversals(sizeOfValue(t), sizeOfValue(a0));
          }
          return 1;
        case "startsWith":
        case "endsWith":
          return factor(sizeOfValue(a0), StringTraversalCostFactor);
        case "split":
          return factor(sizeOfValue(t), 2 * StringTraversalCostFactor);
        case "includes":
          return Array.isArray(t) ? Math.min(t.length, ResourceSliceMaxAttributeValuesPerDevice) : 1;
        case "isSorted":
        case "sum":
        case "min":
        case "max":
          return sizeOfValue(t);
        default:
          return 1;
      }
    }
    default:
      return 1;
  }
}

// cel-go's names of the runtime types a comprehension cannot range over.
const goTypeNames: Readonly<Record<string, string>> = {
  int: "types.Int",
  double: "types.Double",
  bool: "types.Bool",
  string: "types.String",
  null_type: "types.Null",
  "kubernetes.Semver": "cel.Semver",
  "kubernetes.Quantity": "cel.Quantity",
};

/**
 * The library ranges over any object's own properties; CEL only over lists and maps (cel-go's
 * message for the rest).
 */
function assertIterable(value: unknown): void {
  if (Array.isArray(value) || value instanceof Map || value instanceof Set) return;
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return;
  const type = celTypeName(value);
  throw new Error(`got '${goTypeNames[type] ?? type}', expected iterable type`);
}

interface Runner {
  run(node: CelNode, ctx: unknown): unknown;
}

/**
 * The receiver of `asList()` when it looks up an attribute (`attrs.name`, `attrs["name"]`): a list
 * attribute gives {@link AttributeValues} with all its values (the lookup alone gives the first);
 * anything else evaluates as the lookup does.
 */
function attributeValuesLookup(
  node: CelNode,
  lookup: (ev: unknown, ast: unknown, ctx: unknown) => unknown,
): (ev: unknown, ast: unknown, ctx: unknown) => unknown {
  const [operand, key] = node.args as [CelNode, unknown];
  return function (this: CelNode, ev: unknown, ast: unknown, ctx: unknown): unknown {
    const base = (ev as Runner).run(operand, ctx);
    // Not a map: the lookup itself (its operand evaluated once more; it has no side effects).
    if (!(base instanceof Map)) return lookup.call(this, ev, ast, ctx);
    const name = node.op === "." ? key : (ev as Runner).run(key as CelNode, ctx);
    const values = typeof name === "string" ? attributeLists.get(base)?.get(name) : undefined;
    if (values !== undefined) return new AttributeValues(values);
    const value: unknown = base.get(name);
    if (value === undefined) throw new Error(`no such key: ${String(name)}`);
    return value;
  };
}

/**
 * Installs cost tracking on every node of a checked AST: each node's evaluation charges its
 * actual cost to the running tracker and fails once the limit is passed (cel-go's cost limit and
 * interrupt check, which the library does not have).
 */
export function instrument(root: CelNode): void {
  const seen = new Set<CelNode>();
  const asListTargets = new Set<CelNode>();
  const membershipOperands = new Set<CelNode>();
  const comprehensionRanges = new Set<CelNode>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const c of v) visit(c);
      return;
    }
    if (!isNode(v) || seen.has(v)) return;
    seen.add(v);
    const node = v;
    const meta = node.meta;
    if (node.op === "in") membershipOperands.add((node.args as [CelNode, CelNode])[1]);
    if (comprehensionMacro(node) !== undefined) comprehensionRanges.add(callParts(node).target as CelNode);
    if (node.op === "rcall" && callParts(node).name === "asList") {
      const target = callParts(node).target as CelNode;
      if (target.op === "." || target.op === "[]") asListTargets.add(target);
    }
    visit(node.args);
    if (meta.alternate !== undefined) {
      const alt = meta.alternate.args as Record<string, unknown>;
      visit(alt.init);
      visit(alt.step);
      if (isNode(alt.step)) wrapStep(alt.step, comprehensionMacro(node));
    }
    const alternate = meta.alternate;
    const macro = meta.macro;
    const inner =
      alternate !== undefined
        ? (ev: unknown, _ast: unknown, ctx: unknown) => alternate.evaluate(ev, alternate, ctx)
        : macro !== undefined
          ? (ev: unknown, _ast: unknown, ctx: unknown) => macro.evaluate(ev, macro, ctx)
          : asListTargets.has(node)
            ? attributeValuesLookup(node, meta.evaluate)
            : meta.evaluate;
    const membership = membershipOperands.has(node);
    const range = comprehensionRanges.has(node);
    const evaluate = function (this: CelNode, ev: unknown, ast: unknown, ctx: unknown): unknown {
      let result = inner.call(this, ev, ast, ctx);
      if (membership) result = withoutDefault(result);
      if (range) assertIterable(result);
      const tracker = current;
      if (tracker !== undefined) {
        tracker.values.set(node, result);
        tracker.charge(actualCost(node, tracker));
      }
      return result;
    };
    node.evaluate = evaluate;
  };
  // Per iteration: the loop condition and the accumulator read of the quantifiers, and the
  // interrupt check (cel-go checks every InterruptCheckFrequency iterations; here every one).
  const wrapStep = (step: CelNode, macro: string | undefined): void => {
    const perItem = macro === "all" ? 3 : macro === "exists" ? 4 : 0;
    const own = step.evaluate;
    step.evaluate = function (this: CelNode, ev: unknown, ast: unknown, ctx: unknown): unknown {
      const tracker = current;
      if (tracker !== undefined) {
        tracker.checkInterrupt();
        tracker.charge(perItem);
      }
      return own.call(this, ev, ast, ctx);
    };
  };
  visit(root);
}

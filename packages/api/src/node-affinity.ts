// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
import type {
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from "kubernetes-types/core/v1.js";
import {
  type Labels,
  newRequirement,
  type Operator,
  type Requirement,
  requirementErrors,
  type Selector,
  selectorFromRequirements,
  selectorFromSet,
} from "./labels";
import { aggregateMessage, invalidValue, nilStringSlice, unsupportedValue } from "./validation";

/** A node selector that Kubernetes would reject; `errors` holds upstream's field errors. */
export class NodeSelectorError extends Error {
  readonly errors: readonly string[];
  constructor(errors: readonly string[]) {
    super(aggregateMessage(errors));
    this.name = "NodeSelectorError";
    this.errors = errors;
  }
}

const validSelectorOperators = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
const validFieldSelectorOperators = ["In", "NotIn"];

const nodeOperator: Readonly<Record<string, Operator>> = {
  In: "In",
  NotIn: "NotIn",
  Exists: "Exists",
  DoesNotExist: "DoesNotExist",
  Gt: "Gt",
  Lt: "Lt",
};

interface FieldRequirement {
  key: string;
  equal: boolean;
  value: string;
}

/** One parsed NodeSelectorTerm: label requirements ANDed with field requirements. */
class ParsedTerm {
  readonly labels: Selector | undefined;
  readonly fields: readonly FieldRequirement[] | undefined;
  readonly errors: string[];

  constructor(term: NodeSelectorTerm, path: string) {
    this.errors = [];
    const exprs = term.matchExpressions ?? [];
    if (exprs.length > 0) {
      const reqs: Requirement[] = [];
      exprs.forEach((expr, i) => {
        const p = `${path}matchExpressions[${i}]`;
        const op = Object.hasOwn(nodeOperator, expr.operator) ? nodeOperator[expr.operator] : undefined;
        if (op === undefined) {
          this.errors.push(unsupportedValue(`${p}.operator`, expr.operator, validSelectorOperators));
          return;
        }
        const errs = requirementErrors(expr.key, op, expr.values, p);
        if (errs.length > 0) {
          // upstream flattens the requirement's aggregate into the term's errors.
          this.errors.push(...errs);
          return;
        }
        reqs.push(newRequirement(expr.key, op, expr.values));
      });
      this.labels = selectorFromRequirements(reqs);
    } else {
      this.labels = undefined;
    }
    const fieldExprs = term.matchFields ?? [];
    if (fieldExprs.length > 0) {
      const fields: FieldRequirement[] = [];
      fieldExprs.forEach((expr: NodeSelectorRequirement, i) => {
        const p = `${path}matchFields[${i}]`;
        if (expr.operator !== "In" && expr.operator !== "NotIn") {
          this.errors.push(unsupportedValue(`${p}.operator`, expr.operator, validFieldSelectorOperators));
          return;
        }
        const values = expr.values;
        if (values === undefined || values.length !== 1) {
          this.errors.push(invalidValue(`${p}.values`, values ?? nilStringSlice, "must have one element"));
          return;
        }
        fields.push({ key: expr.key, equal: expr.operator === "In", value: values[0]! });
      });
      this.fields = fields;
    } else {
      this.fields = undefined;
    }
  }

  /** Only called on terms without parse errors. */
  match(labels: Labels | undefined, nodeName: string): boolean {
    if (this.labels !== undefined && !this.labels.matches(labels)) return false;
    // Field selectors only apply when the node has a name (upstream extractNodeFields).
    if (this.fields !== undefined && nodeName.length > 0) {
      const fields = this.fields;
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i]!;
        const actual = f.key === "metadata.name" ? nodeName : "";
        if ((actual === f.value) !== f.equal) return false;
      }
    }
    return true;
  }
}

function isEmptyTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions ?? []).length === 0 && (term.matchFields ?? []).length === 0;
}

function parseTerms(ns: NodeSelector | undefined, path: string): ParsedTerm[] {
  const out: ParsedTerm[] = [];
  (ns?.nodeSelectorTerms ?? []).forEach((term, i) => {
    // A nil or empty term selects no objects.
    if (term == null || isEmptyTerm(term)) return;
    out.push(new ParsedTerm(term, `${path}nodeSelectorTerms[${i}].`));
  });
  return out;
}

export interface NodeSelectorOptions {
  /** Throw NodeSelectorError when any term is invalid (upstream NewNodeSelector); default lazy. */
  strict?: boolean;
  /** Field path prefix for error messages, e.g. "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution". */
  path?: string;
}

/**
 * Runtime form of a v1.NodeSelector: terms ORed, requirements within a term ANDed. Invalid
 * terms never match (upstream LazyErrorNodeSelector); `errors` lists their problems.
 */
export class NodeSelectorMatcher {
  private readonly terms: readonly ParsedTerm[];
  /** Parse errors of invalid terms, in upstream's field-error format. */
  readonly errors: readonly string[];

  constructor(ns: NodeSelector | undefined, opts: NodeSelectorOptions = {}) {
    const terms = parseTerms(ns, opts.path ? `${opts.path}.` : "");
    const errors = terms.flatMap((t) => t.errors);
    if (opts.strict === true && errors.length > 0) throw new NodeSelectorError(errors);
    this.terms = terms.filter((t) => t.errors.length === 0);
    this.errors = errors;
  }

  /** True if any valid term matches the node's labels and name. */
  match(node: Node | null | undefined): boolean {
    if (node == null) return false;
    const labels = node.metadata?.labels;
    const name = node.metadata?.name ?? "";
    const terms = this.terms;
    for (let i = 0; i < terms.length; i++) {
      if (terms[i]!.match(labels, name)) return true;
    }
    return false;
  }

  /**
   * Like match, but reports the parse errors when nothing matched, as upstream's
   * LazyErrorNodeSelector.Match.
   */
  matchWithError(node: Node | null | undefined): { match: boolean; error?: NodeSelectorError } {
    if (this.match(node)) return { match: true };
    if (node == null || this.errors.length === 0) return { match: false };
    return { match: false, error: new NodeSelectorError(this.errors) };
  }
}

/** Builds a NodeSelectorMatcher; with `{ strict: true }` throws NodeSelectorError on invalid terms. */
export function newNodeSelector(
  ns: NodeSelector | undefined,
  opts?: NodeSelectorOptions,
): NodeSelectorMatcher {
  return new NodeSelectorMatcher(ns, opts);
}

interface WeightedTerm {
  term: ParsedTerm;
  weight: number;
}

/** Runtime form of []PreferredSchedulingTerm (upstream PreferredSchedulingTerms). */
export class PreferredSchedulingTermsMatcher {
  private readonly terms: readonly WeightedTerm[];
  readonly errors: readonly string[];

  /** Terms with weight 0 or no requirements are skipped; invalid terms never score. */
  constructor(terms: readonly PreferredSchedulingTerm[] | undefined, opts: NodeSelectorOptions = {}) {
    const parsed: WeightedTerm[] = [];
    const errors: string[] = [];
    const prefix = opts.path ?? "";
    (terms ?? []).forEach((t, i) => {
      if (!t.weight || isEmptyTerm(t.preference)) return;
      const term = new ParsedTerm(t.preference, `${prefix}[${i}].`);
      if (term.errors.length > 0) errors.push(...term.errors);
      else parsed.push({ term, weight: t.weight });
    });
    if (opts.strict === true && errors.length > 0) throw new NodeSelectorError(errors);
    this.terms = parsed;
    this.errors = errors;
  }

  /** The sum of the weights of the terms matching the node. */
  score(node: Node): number {
    const labels = node.metadata?.labels;
    const name = node.metadata?.name ?? "";
    let score = 0;
    const terms = this.terms;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      if (t.term.match(labels, name)) score += t.weight;
    }
    return score;
  }
}

/** Pod's spec.nodeSelector AND required node affinity (upstream RequiredNodeAffinity). */
export class RequiredNodeAffinity {
  private readonly labelSelector: Selector | undefined;
  private readonly nodeSelector: NodeSelectorMatcher | undefined;

  constructor(pod: Pod) {
    const ns = pod.spec?.nodeSelector;
    this.labelSelector = ns != null && Object.keys(ns).length > 0 ? selectorFromSet(ns) : undefined;
    const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.nodeSelector = required != null ? new NodeSelectorMatcher(required) : undefined;
  }

  match(node: Node): boolean {
    if (this.labelSelector !== undefined && !this.labelSelector.matches(node.metadata?.labels)) return false;
    if (this.nodeSelector !== undefined) return this.nodeSelector.match(node);
    return true;
  }

  /** Like match, also returning the parse errors of the affinity terms when nothing matched. */
  matchWithError(node: Node): { match: boolean; error?: NodeSelectorError } {
    if (this.labelSelector !== undefined && !this.labelSelector.matches(node.metadata?.labels)) {
      return { match: false };
    }
    if (this.nodeSelector !== undefined) return this.nodeSelector.matchWithError(node);
    return { match: true };
  }
}

/** Parses the pod's nodeSelector and required node affinity once, for matching many nodes. */
export function getRequiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  return new RequiredNodeAffinity(pod);
}

// Walking @marcbachmann/cel-js's parsed (and checked) AST: every node once, through call
// arguments, lists, the alternates the checker sets (macro expansions) and a comprehension's
// parts ({ init, step, … }).

/** A node of the library's AST as the walkers here see it. */
export interface AstNode {
  readonly op: string;
  readonly args: unknown;
  readonly meta?: { readonly alternate?: unknown };
}

/** Calls `fn` once for each node reachable from `root`, parents before their arguments. */
export function forEachNode(root: unknown, fn: (node: AstNode) => void): void {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const c of v) visit(c);
      return;
    }
    if (typeof v !== "object" || v === null || seen.has(v)) return;
    seen.add(v);
    if (typeof (v as AstNode).op !== "string") {
      // A comprehension's parts: visit each.
      if (Object.getPrototypeOf(v) === Object.prototype) for (const c of Object.values(v)) visit(c);
      return;
    }
    const node = v as AstNode;
    fn(node);
    visit(node.args);
    if (node.meta?.alternate !== undefined) visit(node.meta.alternate);
  };
  visit(root);
}

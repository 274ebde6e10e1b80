// has() on any expression. cel-go accepts `has(e.f)` for every operand `e`
// (`has(device.attributes["dra.example.com"].model)`); @marcbachmann/cel-js's has() macro only
// accepts a chain of field selections from a variable. Its parsed macro is replaced by this one
// where the library would reject it, with cel-go's semantics: a map has `f` when looking `f` up
// finds it (so, as upstream's mapper, a device's attributes or capacity "have" every domain),
// an object when the field is set.
import { forEachNode } from "./ast";
import type { CelNode } from "./cost";

interface TypeChecker {
  check(node: unknown, ctx: unknown): unknown;
  getType(name: string): unknown;
  createError(code: string, message: string, node: unknown): Error;
}
interface Evaluator {
  run(node: unknown, ctx: unknown): unknown;
}
interface Settable {
  setMeta(key: string, value: unknown): unknown;
}

function present(value: unknown, field: string): boolean {
  if (value instanceof Map) return value.get(field) !== undefined;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return (value as Record<string, unknown>)[field] !== undefined;
  }
  throw new Error(`invalid type for field selection: has(${field})`);
}

function selectsFromVariable(node: CelNode): boolean {
  let n = node;
  while (n.op === "." || n.op === ".?") n = (n.args as [CelNode])[0];
  return n.op === "id";
}

function presenceMacro(select: CelNode): object {
  const [operand, field] = select.args as [CelNode, string];
  return {
    args: [select],
    async: false,
    typeCheck(checker: TypeChecker, _macro: unknown, ctx: unknown): unknown {
      checker.check(operand, ctx);
      return checker.getType("bool");
    },
    evaluate(ev: Evaluator, _macro: unknown, ctx: unknown): boolean {
      return present(ev.run(operand, ctx), field);
    },
  };
}

/** Replaces the has() macros the library would reject (a parsed, not yet checked AST). */
export function allowPresenceTestsOnExpressions(root: CelNode): void {
  forEachNode(root, (n) => {
    const node = n as CelNode;
    if (node.op !== "call" || node.meta.macro === undefined) return;
    const [name, args] = node.args as [string, CelNode[]];
    const select = args[0];
    if (name !== "has" || args.length !== 1 || select === undefined || select.op !== ".") return;
    if (selectsFromVariable(select)) return;
    (node as unknown as Settable).setMeta("macro", presenceMacro(select));
  });
}

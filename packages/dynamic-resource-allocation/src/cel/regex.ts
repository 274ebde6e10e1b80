// CEL's regular expressions as Kubernetes evaluates them: Go's regexp package, which is RE2 —
// RE2 syntax (no lookaround, no backreferences; `(?i)` flags, `\pL` classes, `\Q…\E`) and matching
// in time linear in the input. upstream: cel-go's `matches` (ext/strings, common/functions:
// regexp.MatchString) and apiserver/pkg/cel/library/regex.go (`find`: FindString, `findAll`:
// FindAllString), errors as regexp.Compile words them ("error parsing regexp: …").
//
// JavaScript's RegExp backtracks: `'aaaa…!'.matches('^(a+)+$')` runs for minutes, and one claim
// or class selector holding such a pattern would stop the scheduler (the filter timeout cannot
// interrupt a synchronous RegExp call). re2js (a port of RE2/J) gives RE2's syntax, its error
// messages and its linear-time matching.
import { RE2JS } from "re2js";
import { forEachNode } from "./ast";

/** What kubesched reads of a compiled RE2 program (re2js's RE2, untyped in its declarations). */
interface RE2Program {
  find(s: string): string;
  findAll(s: string, n: number): string[] | null;
}

interface Compiled {
  readonly pattern: RE2JS;
  readonly program: RE2Program;
}

/** Compiled patterns, most recently used last (selectors use a handful of constant patterns). */
const compiled = new Map<string, Compiled>();
const maxCompiled = 256;

/**
 * The pattern compiled as Go's regexp.Compile compiles it; throws Go's error
 * (`error parsing regexp: missing closing ): \`(abc\``) for an invalid one.
 */
function compile(pattern: string): Compiled {
  const kept = compiled.get(pattern);
  if (kept !== undefined) {
    compiled.delete(pattern);
    compiled.set(pattern, kept);
    return kept;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    throw new Error(err instanceof Error ? err.message : `error parsing regexp: ${String(err)}`);
  }
  const entry: Compiled = { pattern: re, program: re.re2() as RE2Program };
  compiled.set(pattern, entry);
  if (compiled.size > maxCompiled) compiled.delete(compiled.keys().next().value as string);
  return entry;
}

/** `s.matches(pattern)`: whether the pattern matches somewhere in `s` (regexp.MatchString). */
export function regexMatches(s: string, pattern: string): boolean {
  return compile(pattern).pattern.test(s);
}

/** `s.find(pattern)`: the leftmost match, or "" (regexp.FindString). */
export function regexFind(s: string, pattern: string): string {
  return compile(pattern).program.find(s) ?? "";
}

/** `s.findAll(pattern, n)`: at most `n` successive matches, all when `n` < 0 (regexp.FindAllString). */
export function regexFindAll(s: string, pattern: string, n: number): string[] {
  if (n === 0) return [];
  return compile(pattern).program.findAll(s, n) ?? [];
}

/** What {@link useRE2ForMatches} reads and sets on a checked call node of the library's AST. */
interface CallNode {
  readonly op: string;
  readonly args: unknown;
  handle?: (args: unknown[], ev: unknown, ast: unknown) => unknown;
}

/**
 * Makes every `s.matches(re)` of a checked expression match with RE2 ({@link regexMatches})
 * instead of the library's RegExp. Operands that are not strings (a `dyn` receiver) keep the
 * library's handling, which reports the missing overload.
 */
export function useRE2ForMatches(root: unknown): void {
  forEachNode(root, (n) => {
    if (n.op !== "rcall") return;
    const node = n as CallNode;
    const [name] = node.args as [string];
    const library = node.handle;
    if (name !== "matches" || library === undefined) return;
    node.handle = (args, ev, ast) => {
      const [s, re] = args;
      return typeof s === "string" && typeof re === "string" ? regexMatches(s, re) : library(args, ev, ast);
    };
  });
}

// upstream: staging/src/k8s.io/apimachinery/pkg/labels/selector.go and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector).
import type { LabelSelector } from "kubernetes-types/meta/v1.js";
import {
  aggregateMessage,
  invalidValue,
  isQualifiedName,
  isValidLabelValue,
  nilStringSlice,
  unsupportedValue,
} from "./validation";

/** Selector operators, named after upstream's selection.Operator constants. */
export type Operator =
  | "In"
  | "NotIn"
  | "Exists"
  | "DoesNotExist"
  | "Equals"
  | "DoubleEquals"
  | "NotEquals"
  | "Gt"
  | "Lt";

/** One condition of a selector; all requirements of a selector are ANDed. */
export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: string[];
}

export type Labels = Readonly<Record<string, string>>;

/** A label selector. `matches` does not allocate. */
export interface Selector {
  matches(labels: Labels | undefined): boolean;
  /** True if the selector does not restrict the selection space (Everything). */
  empty(): boolean;
  /** The selector in label-selector string syntax (`a=b,c in (x,y),!d`). */
  string(): string;
  requirements(): readonly Requirement[];
}

/** A selector or requirement that Kubernetes would reject; the message is upstream's. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LabelSelectorError";
  }
}

// The textual form of each operator in the selector syntax (upstream selection.Operator values).
const operatorToken: Record<Operator, string> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
  Equals: "=",
  DoubleEquals: "==",
  NotEquals: "!=",
  Gt: "gt",
  Lt: "lt",
};
const validRequirementOperators = ["in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"];

const OP_IN = 0;
const OP_NOT_IN = 1;
const OP_EXISTS = 2;
const OP_DOES_NOT_EXIST = 3;
const OP_GT = 4;
const OP_LT = 5;
const opCode: Record<Operator, number> = {
  In: OP_IN,
  Equals: OP_IN,
  DoubleEquals: OP_IN,
  NotIn: OP_NOT_IN,
  NotEquals: OP_NOT_IN,
  Exists: OP_EXISTS,
  DoesNotExist: OP_DOES_NOT_EXIST,
  Gt: OP_GT,
  Lt: OP_LT,
};

const int64Re = /^[+-]?[0-9]+$/;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/** strconv.ParseInt(s, 10, 64); undefined on error. Numbers when exact, bigint otherwise. */
export function parseInt64(s: string): number | bigint | undefined {
  if (!int64Re.test(s)) return undefined;
  if (s.length <= 16) return Number(s);
  const v = BigInt(s);
  if (v < MIN_INT64 || v > MAX_INT64) return undefined;
  return v;
}

function lessThan(a: number | bigint, b: number | bigint): boolean {
  return typeof a === typeof b ? a < b : BigInt(a) < BigInt(b);
}

/** A requirement compiled for allocation-free matching. */
class CompiledRequirement implements Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: string[];
  private readonly op: number;
  private readonly single: string | undefined;
  private readonly set: ReadonlySet<string> | undefined;
  private readonly bound: number | bigint | undefined;

  constructor(key: string, operator: Operator, values: string[]) {
    this.key = key;
    this.operator = operator;
    this.values = values;
    this.op = opCode[operator];
    this.single = values.length === 1 ? values[0] : undefined;
    this.set = values.length > 1 ? new Set(values) : undefined;
    this.bound =
      values.length === 1 && (this.op === OP_GT || this.op === OP_LT) ? parseInt64(values[0]!) : undefined;
  }

  private hasValue(v: string): boolean {
    if (this.single !== undefined) return v === this.single;
    return this.set?.has(v) === true;
  }

  matches(labels: Labels): boolean {
    const v = labels[this.key];
    // typeof guards against inherited Object.prototype members ("constructor", ...).
    const exists = typeof v === "string";
    switch (this.op) {
      case OP_IN:
        return exists && this.hasValue(v);
      case OP_NOT_IN:
        return !exists || !this.hasValue(v);
      case OP_EXISTS:
        return exists;
      case OP_DOES_NOT_EXIST:
        return !exists;
      default: {
        if (!exists || this.bound === undefined) return false;
        const lv = parseInt64(v);
        if (lv === undefined) return false;
        return this.op === OP_GT ? lessThan(this.bound, lv) : lessThan(lv, this.bound);
      }
    }
  }

  toString(): string {
    let out = this.operator === "DoesNotExist" ? `!${this.key}` : this.key;
    switch (this.operator) {
      case "Exists":
      case "DoesNotExist":
        return out;
      case "In":
        out += " in (";
        break;
      case "NotIn":
        out += " notin (";
        break;
      case "Equals":
        out += "=";
        break;
      case "DoubleEquals":
        out += "==";
        break;
      case "NotEquals":
        out += "!=";
        break;
      case "Gt":
        out += ">";
        break;
      case "Lt":
        out += "<";
        break;
    }
    out += this.values.length === 1 ? this.values[0] : [...this.values].sort().join(",");
    if (this.operator === "In" || this.operator === "NotIn") out += ")";
    return out;
  }
}

const EMPTY_LABELS: Labels = Object.freeze({});

class InternalSelector implements Selector {
  private readonly reqs: readonly CompiledRequirement[];

  constructor(reqs: readonly CompiledRequirement[]) {
    this.reqs = reqs;
  }

  matches(labels: Labels | undefined): boolean {
    const ls = labels ?? EMPTY_LABELS;
    const reqs = this.reqs;
    for (let i = 0; i < reqs.length; i++) {
      if (!reqs[i]!.matches(ls)) return false;
    }
    return true;
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  string(): string {
    return this.reqs.map((r) => r.toString()).join(",");
  }

  requirements(): readonly Requirement[] {
    return this.reqs;
  }

  toString(): string {
    return this.string();
  }
}

const nothingSelector: Selector = Object.freeze({
  matches: () => false,
  empty: () => false,
  string: () => "",
  requirements: () => [],
  toString: () => "",
});
const everythingSelector: Selector = new InternalSelector([]);

/** Matches every label set. */
export function everything(): Selector {
  return everythingSelector;
}

/** Matches nothing (what a nil LabelSelector means). */
export function nothing(): Selector {
  return nothingSelector;
}

/** True only for the nothing() selector (upstream labels.MatchesNothing). */
export function matchesNothing(s: Selector): boolean {
  return s === nothingSelector;
}

function byKey(reqs: CompiledRequirement[]): CompiledRequirement[] {
  // Stable, so equal keys keep their input order.
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function validateRequirement(key: string, operator: string, values: string[] | undefined): string[] {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(invalidValue("key", key, keyErrs.join("; ")));
  const vals = values ?? [];
  const bad = values ?? nilStringSlice;
  switch (operator) {
    case "In":
    case "NotIn":
      if (vals.length === 0)
        errs.push(invalidValue("values", bad, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case "Equals":
    case "DoubleEquals":
    case "NotEquals":
      if (vals.length !== 1)
        errs.push(invalidValue("values", bad, "exact-match compatibility requires one single value"));
      break;
    case "Exists":
    case "DoesNotExist":
      if (vals.length !== 0)
        errs.push(invalidValue("values", bad, "values set must be empty for exists and does not exist"));
      break;
    case "Gt":
    case "Lt":
      if (vals.length !== 1)
        errs.push(invalidValue("values", bad, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(
            invalidValue(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"),
          );
        }
      });
      break;
    default:
      errs.push(unsupportedValue("operator", operator, validRequirementOperators));
  }
  vals.forEach((v, i) => {
    const valErrs = isValidLabelValue(v);
    if (valErrs.length > 0) errs.push(invalidValue(`values[${i}][${key}]`, v, valErrs.join("; ")));
  });
  return errs;
}

/**
 * Prefixes every field path in a list of errors (upstream field.WithPath). Paths are the text
 * before the first ": ".
 */
function withPath(errs: string[], path: string): string[] {
  if (path === "") return errs;
  return errs.map((e) => `${path}.${e}`);
}

/**
 * Builds a validated requirement (upstream labels.NewRequirement). Throws LabelSelectorError
 * with every problem; `path` prefixes the field paths in the message.
 */
export function newRequirement(key: string, operator: Operator, values?: string[], path = ""): Requirement {
  const errs = requirementErrors(key, operator, values, path);
  if (errs.length > 0) throw new LabelSelectorError(aggregateMessage(errs));
  return new CompiledRequirement(key, operator, values ? [...values] : []);
}

/** The validation problems of a requirement as upstream field errors (empty when valid). */
export function requirementErrors(
  key: string,
  operator: string,
  values: string[] | undefined,
  path = "",
): string[] {
  return withPath(validateRequirement(key, operator, values), path);
}

/** A selector from already-validated requirements, sorted by key (upstream Selector.Add). */
export function selectorFromRequirements(reqs: readonly Requirement[]): Selector {
  if (reqs.length === 0) return everythingSelector;
  return new InternalSelector(
    byKey(reqs.map((r) => new CompiledRequirement(r.key, r.operator, [...r.values]))),
  );
}

/**
 * A selector matching exactly the given labels; empty means everything. No validation, as
 * upstream SelectorFromSet / SelectorFromValidatedSet.
 */
export function selectorFromSet(labels: Readonly<Record<string, string>> | null | undefined): Selector {
  if (labels == null) return everythingSelector;
  const reqs: CompiledRequirement[] = [];
  for (const key of Object.keys(labels)) reqs.push(new CompiledRequirement(key, "Equals", [labels[key]!]));
  if (reqs.length === 0) return everythingSelector;
  return new InternalSelector(byKey(reqs));
}

/**
 * Converts a metav1.LabelSelector (upstream LabelSelectorAsSelector): null/undefined matches
 * nothing, an empty selector matches everything. Throws LabelSelectorError.
 */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): Selector {
  if (ls == null) return nothingSelector;
  const matchLabels = ls.matchLabels ?? {};
  const matchExpressions = ls.matchExpressions ?? [];
  const labelKeys = Object.keys(matchLabels);
  if (labelKeys.length + matchExpressions.length === 0) return everythingSelector;
  const reqs: CompiledRequirement[] = [];
  for (const key of labelKeys) {
    const value = matchLabels[key]!;
    const errs = validateRequirement(key, "Equals", [value]);
    if (errs.length > 0) throw new LabelSelectorError(aggregateMessage(errs));
    reqs.push(new CompiledRequirement(key, "Equals", [value]));
  }
  for (const expr of matchExpressions) {
    let op: Operator;
    switch (expr.operator) {
      case "In":
      case "NotIn":
      case "Exists":
      case "DoesNotExist":
        op = expr.operator;
        break;
      default:
        throw new LabelSelectorError(
          `${JSON.stringify(expr.operator)} is not a valid label selector operator`,
        );
    }
    // upstream copies with append([]string(nil), ...): an empty list prints as a nil slice.
    const values = expr.values && expr.values.length > 0 ? [...expr.values] : undefined;
    const errs = validateRequirement(expr.key, op, values);
    if (errs.length > 0) throw new LabelSelectorError(aggregateMessage(errs));
    reqs.push(new CompiledRequirement(expr.key, op, values ?? []));
  }
  return new InternalSelector(byKey(reqs));
}

// ---- string syntax: upstream's Lexer and Parser ----

enum Token {
  Error = 0,
  EndOfString = 1,
  ClosedPar = 2,
  Comma = 3,
  DoesNotExist = 4,
  DoubleEquals = 5,
  Equals = 6,
  GreaterThan = 7,
  Identifier = 8,
  In = 9,
  LessThan = 10,
  NotEquals = 11,
  NotIn = 12,
  OpenPar = 13,
}

const string2token: Record<string, Token> = {
  ")": Token.ClosedPar,
  ",": Token.Comma,
  "!": Token.DoesNotExist,
  "==": Token.DoubleEquals,
  "=": Token.Equals,
  ">": Token.GreaterThan,
  in: Token.In,
  "<": Token.LessThan,
  "!=": Token.NotEquals,
  notin: Token.NotIn,
  "(": Token.OpenPar,
};

function lookupToken(s: string): Token | undefined {
  return Object.hasOwn(string2token, s) ? string2token[s] : undefined;
}

function isWhitespace(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
}

function isSpecialSymbol(ch: string): boolean {
  return ch === "=" || ch === "!" || ch === "(" || ch === ")" || ch === "," || ch === ">" || ch === "<";
}

interface Scanned {
  tok: Token;
  lit: string;
}

function lex(s: string): Scanned[] {
  const items: Scanned[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++]! : "");
  for (;;) {
    let ch = read();
    while (ch !== "" && isWhitespace(ch)) ch = read();
    if (ch === "") {
      items.push({ tok: Token.EndOfString, lit: "" });
      return items;
    }
    pos--;
    if (isSpecialSymbol(ch)) {
      let buffer = "";
      let last: Scanned | undefined;
      for (;;) {
        const c = read();
        if (c === "") break;
        if (isSpecialSymbol(c)) {
          buffer += c;
          const t = lookupToken(buffer);
          if (t !== undefined) {
            last = { tok: t, lit: buffer };
          } else if (last !== undefined) {
            pos--;
            break;
          }
        } else {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: Token.Error, lit: `error expected: keyword found '${buffer}'` });
    } else {
      let buffer = "";
      for (;;) {
        const c = read();
        if (c === "") break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: lookupToken(buffer) ?? Token.Identifier, lit: buffer });
    }
  }
}

const binaryOperators = ["in", "notin", "=", "==", "!=", "gt", "lt"];

class Parser {
  private readonly items: Scanned[];
  private position = 0;

  constructor(s: string) {
    this.items = lex(s);
  }

  // In the Values context "in" and "notin" are identifiers ("x in (in)").
  private lookahead(values: boolean): Scanned {
    const it = this.items[this.position]!;
    return values && (it.tok === Token.In || it.tok === Token.NotIn)
      ? { tok: Token.Identifier, lit: it.lit }
      : it;
  }

  private consume(values: boolean): Scanned {
    const it = this.lookahead(values);
    this.position++;
    return it;
  }

  parse(): CompiledRequirement[] {
    const reqs: CompiledRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          reqs.push(this.parseRequirementWrapped());
          const t = this.consume(true);
          if (t.tok === Token.EndOfString) return reqs;
          if (t.tok === Token.Comma) {
            const t2 = this.lookahead(true);
            if (t2.tok !== Token.Identifier && t2.tok !== Token.DoesNotExist) {
              throw new LabelSelectorError(`found '${t2.lit}', expected: identifier after ','`);
            }
            break;
          }
          throw new LabelSelectorError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
        case Token.EndOfString:
          return reqs;
        default:
          throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirementWrapped(): CompiledRequirement {
    try {
      return this.parseRequirement();
    } catch (e) {
      if (e instanceof LabelSelectorError)
        throw new LabelSelectorError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  private parseRequirement(): CompiledRequirement {
    let operator: Operator | undefined;
    let t = this.consume(true);
    if (t.tok === Token.DoesNotExist) {
      operator = "DoesNotExist";
      t = this.consume(true);
    }
    if (t.tok !== Token.Identifier) throw new LabelSelectorError(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    // upstream validates with a nil field path, hence the leading ": ".
    if (keyErrs.length > 0) throw new LabelSelectorError(invalidValue("", key, keyErrs.join("; ")));
    const next = this.lookahead(true).tok;
    if (next === Token.EndOfString || next === Token.Comma) {
      if (operator !== "DoesNotExist") operator = "Exists";
    }
    if (operator === "Exists" || operator === "DoesNotExist") return build(key, operator, []);
    const op = this.parseOperator();
    const values = op === "In" || op === "NotIn" ? this.parseValues() : this.parseExactValue();
    return build(key, op, [...values].sort());
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case Token.In:
        return "In";
      case Token.Equals:
        return "Equals";
      case Token.DoubleEquals:
        return "DoubleEquals";
      case Token.GreaterThan:
        return "Gt";
      case Token.LessThan:
        return "Lt";
      case Token.NotIn:
        return "NotIn";
      case Token.NotEquals:
        return "NotEquals";
      default:
        throw new LabelSelectorError(`found '${lit}', expected: ${binaryOperators.join(", ")}`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== Token.OpenPar) throw new LabelSelectorError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(true).tok !== Token.ClosedPar)
          throw new LabelSelectorError(`found '${lit}', expected: ')'`);
        return s;
      }
      case Token.ClosedPar:
        this.consume(true);
        return new Set([""]);
      default:
        throw new LabelSelectorError(`found '${lit}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === Token.Identifier) {
        s.add(lit);
        const t2 = this.lookahead(true);
        if (t2.tok === Token.Comma) continue;
        if (t2.tok === Token.ClosedPar) return s;
        throw new LabelSelectorError(`found '${t2.lit}', expected: ',' or ')'`);
      }
      if (tok === Token.Comma) {
        if (s.size === 0) s.add(""); // "(,"
        const t2 = this.lookahead(true).tok;
        if (t2 === Token.ClosedPar) {
          s.add(""); // ",)"
          return s;
        }
        if (t2 === Token.Comma) s.add(""); // ",,"
        continue;
      }
      throw new LabelSelectorError(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const t = this.lookahead(true).tok;
    if (t === Token.EndOfString || t === Token.Comma) return new Set([""]);
    const { tok, lit } = this.consume(true);
    if (tok === Token.Identifier) return new Set([lit]);
    throw new LabelSelectorError(`found '${lit}', expected: identifier`);
  }
}

function build(key: string, op: Operator, values: string[]): CompiledRequirement {
  const errs = validateRequirement(key, op, values);
  if (errs.length > 0) throw new LabelSelectorError(aggregateMessage(errs));
  return new CompiledRequirement(key, op, values);
}

/**
 * Parses the label-selector string syntax (upstream labels.Parse), e.g.
 * `x in (foo,,baz),y,z notin ()`. Throws LabelSelectorError.
 */
export function parseSelector(s: string): Selector {
  const reqs = new Parser(s).parse();
  return reqs.length === 0 ? everythingSelector : new InternalSelector(byKey(reqs));
}

/** The operator's token in the string syntax ("in", "notin", "=", ...). */
export function operatorString(op: Operator): string {
  return operatorToken[op];
}

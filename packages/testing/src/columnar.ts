// Columnar Filter/Score (ColumnarFilterPlugin, ColumnarScorePlugin, ColumnarScoreExtensions) must decide
// exactly what the per-node methods decide. These helpers let a test run the same cycles both
// ways and compare: a registry whose plugins hide their columnar methods (the runtime then calls
// filter() and score() node by node), and a direct comparison of a plugin's two forms.
import type { Pod } from "@kubesched/api";
import {
  type CycleState,
  isScorePlugin,
  isStatus,
  type NodeInfo,
  type Plugin,
  type PluginDescriptor,
  type Registry,
  type ScoreExtensions,
  type Status,
} from "@kubesched/framework";
import {
  type ColumnWindow,
  isColumnarFilterPlugin,
  isColumnarPreScorePlugin,
  isColumnarScoreExtensions,
  isColumnarScorePlugin,
  type NodeColumns,
} from "@kubesched/framework/columnar";
import { type StatusSummary, statusSummary } from "./status-summary";

const batchMethods = ["filterColumns", "preScoreColumns", "scoreColumns", "normalizeScoreColumns"] as const;

function hasBatchMethod(o: object): boolean {
  const r = o as Record<string, unknown>;
  return batchMethods.some((m) => typeof r[m] === "function");
}

/**
 * The plugin seen without its columnar methods: an object whose prototype is the plugin, with
 * `filterColumns`, `scoreColumns` and `normalizeScoreColumns` shadowed (also on what scoreExtensions()
 * returns). Every other method runs on the plugin's own code and state, called on the plugin itself
 * (bound), so that methods reading `#private` fields work.
 */
export function hideColumnarMethods<P extends Plugin>(plugin: P): P {
  if (!hasBatchMethod(plugin) && typeof (plugin as Record<string, unknown>).scoreExtensions !== "function") {
    return plugin;
  }
  const hidden = Object.create(plugin) as Record<string, unknown>;
  bindMethods(hidden, plugin);
  for (const m of batchMethods) hidden[m] = undefined;
  const ext = (plugin as Record<string, unknown>).scoreExtensions;
  if (typeof ext === "function") {
    hidden.scoreExtensions = (): ScoreExtensions | null => {
      const e = (ext as () => ScoreExtensions | null).call(plugin);
      if ((e as object) === plugin) return hidden as unknown as ScoreExtensions;
      if (e === null || !hasBatchMethod(e)) return e;
      const h = Object.create(e) as Record<string, unknown>;
      bindMethods(h, e);
      h.normalizeScoreColumns = undefined;
      return h as unknown as ScoreExtensions;
    };
  }
  return hidden as unknown as P;
}

/** Gives `target` each method of `source` (own or inherited, not Object's) bound to `source`. */
function bindMethods(target: Record<string, unknown>, source: object): void {
  for (let o: object | null = source; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name === "constructor" || Object.hasOwn(target, name)) continue;
      const d = Object.getOwnPropertyDescriptor(o, name);
      if (d === undefined || typeof d.value !== "function") continue;
      target[name] = (d.value as (...args: unknown[]) => unknown).bind(source);
    }
  }
}

/** The registry with every plugin built by `hideColumnarMethods`: Filter and Score run per node. */
export function withoutColumnar(registry: Registry): Registry {
  const out = new Map<string, PluginDescriptor<unknown>>();
  for (const [name, d] of registry) {
    out.set(name, {
      ...d,
      factory: async (args, handle) => hideColumnarMethods(await d.factory(args, handle)),
    });
  }
  return out;
}

/** Equal numbers (0 and -0 alike, as JSON prints them), or both NaN. */
function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

function summaries(list: readonly (Status | null)[]): (StatusSummary | null)[] {
  return list.map((s) => (s === null || s.isSuccess() ? null : statusSummary(s)));
}

/** The window over `nodes`: their indices in `columns` (every node must be in them). */
function windowOf(what: string, columns: NodeColumns, nodes: readonly NodeInfo[]): ColumnWindow {
  const indices = Int32Array.from(nodes, (ni) => columns.indexOf(ni));
  if (indices.some((i) => i < 0)) throw new Error(`${what}: a node is not in the columns`);
  return { columns, indices, count: nodes.length };
}

/**
 * Throws when the plugin's filterColumns over `nodes` does not return what filter() returns on
 * each node (code and reasons). Nothing to do for a plugin without filterColumns.
 */
export function checkFilterColumns(
  plugin: Plugin,
  state: CycleState,
  pod: Pod,
  columns: NodeColumns,
  nodes: readonly NodeInfo[],
): void {
  if (!isColumnarFilterPlugin(plugin) || nodes.length === 0) return;
  const window = windowOf("checkFilterColumns", columns, nodes);
  const out: (Status | null)[] = new Array(nodes.length).fill(undefined);
  plugin.filterColumns(state, pod, window, out);
  const want = summaries(nodes.map((ni) => plugin.filter(state, pod, ni)));
  if (out.some((s) => s === undefined)) {
    throw new Error(`${plugin.name()}.filterColumns left statuses unset`);
  }
  const got = summaries(out);
  const a = JSON.stringify(got);
  const b = JSON.stringify(want);
  if (a !== b)
    throw new Error(`${plugin.name()}.filterColumns differs from filter():\n batch: ${a}\n  node: ${b}`);
}

/**
 * Throws when the plugin's scoreColumns (and normalizeScoreColumns) over `nodes` does not give what
 * score() (and normalizeScore) give: the same scores, or the same failure.
 */
export function checkScoreColumns(
  plugin: Plugin,
  state: CycleState,
  pod: Pod,
  columns: NodeColumns,
  nodes: readonly NodeInfo[],
): void {
  if (!isColumnarScorePlugin(plugin) || nodes.length === 0) return;
  const window = windowOf("checkScoreColumns", columns, nodes);
  const n = nodes.length;
  // Per node.
  let wantStatus: Status | null = null;
  const list = nodes.map((ni) => ({ name: ni.nodeName, score: 0 }));
  for (let k = 0; k < n; k++) {
    const r = plugin.score(state, pod, nodes[k] as NodeInfo);
    if (isStatus(r)) {
      if (!r.isSuccess()) {
        wantStatus = r;
        break;
      }
    } else {
      (list[k] as { score: number }).score = r;
    }
  }
  // Batch.
  const scores = new Float64Array(n).fill(Number.NaN);
  const gotStatus = plugin.scoreColumns(state, pod, window, scores);
  const fail = (what: string, got: unknown, want: unknown): never => {
    throw new Error(
      `${plugin.name()}.${what} differs:\n batch: ${JSON.stringify(got)}\n  node: ${JSON.stringify(want)}`,
    );
  };
  const gs = gotStatus === null || gotStatus.isSuccess() ? null : statusSummary(gotStatus);
  const ws = wantStatus === null ? null : statusSummary(wantStatus);
  if (JSON.stringify(gs) !== JSON.stringify(ws)) fail("scoreColumns status", gs, ws);
  if (ws !== null) return;
  const raw = list.map((s) => s.score);
  if (raw.some((v, k) => !same(v, scores[k] as number))) fail("scoreColumns", [...scores], raw);
  const ext = plugin.scoreExtensions();
  if (ext === null) return;
  const wantNorm = ext.normalizeScore(state, pod, list);
  if (!isColumnarScoreExtensions(ext)) return;
  const gotNorm = ext.normalizeScoreColumns(state, pod, window, scores);
  const gn = gotNorm === null || gotNorm.isSuccess() ? null : statusSummary(gotNorm);
  const wn = wantNorm === null || wantNorm.isSuccess() ? null : statusSummary(wantNorm);
  if (JSON.stringify(gn) !== JSON.stringify(wn)) fail("normalizeScoreColumns status", gn, wn);
  if (wn !== null) return;
  const norm = list.map((s) => s.score);
  if (norm.some((v, k) => !same(v, scores[k] as number))) fail("normalizeScoreColumns", [...scores], norm);
}

/**
 * Throws when the plugin's preScoreColumns over `nodes`, run on `fresh`, does not return what
 * preScore returned (`want`) or leaves a state on which the nodes score differently from `wanted`
 * (the state preScore wrote). Nothing to do for a plugin without preScoreColumns.
 */
export function checkPreScoreColumns(
  plugin: Plugin,
  pod: Pod,
  columns: NodeColumns,
  nodes: readonly NodeInfo[],
  want: Status | null,
  wanted: CycleState,
  fresh: CycleState,
): void {
  if (!isColumnarPreScorePlugin(plugin) || nodes.length === 0) return;
  const got = plugin.preScoreColumns(fresh, pod, windowOf("checkPreScoreColumns", columns, nodes));
  const summary = (s: Status | null) => (s === null ? null : statusSummary(s));
  const a = JSON.stringify(summary(got));
  const b = JSON.stringify(summary(want));
  if (a !== b)
    throw new Error(`${plugin.name()}.preScoreColumns differs from preScore():\n batch: ${a}\n  node: ${b}`);
  if (!(want === null || want.isSuccess()) || !isScorePlugin(plugin)) return;
  const scoresOn = (state: CycleState) => {
    const list = nodes.map((ni) => {
      const r = plugin.score(state, pod, ni);
      return { name: ni.nodeName, score: isStatus(r) ? Number.NaN : r };
    });
    plugin.scoreExtensions()?.normalizeScore(state, pod, list);
    return JSON.stringify(list);
  };
  const x = scoresOn(fresh);
  const y = scoresOn(wanted);
  if (x !== y)
    throw new Error(`${plugin.name()}.preScoreColumns leaves other scores:\n batch: ${x}\n  node: ${y}`);
}

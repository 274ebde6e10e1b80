// The columnar subpath (@beta) as a plugin adds it to its per-node methods: its types are the main
// entry's. Imports the packages by name, as tooling/type-tests compiles it against the built .d.ts.
import type { Pod } from "@kubesched/api";
import type {
  CycleState,
  FilterPlugin,
  NodeInfo,
  NodeInfoLister,
  Plugin,
  ScoreExtensions,
  ScorePlugin,
  Status,
} from "@kubesched/framework";
import {
  type ColumnarFilterPlugin,
  type ColumnarNodeInfoLister,
  type ColumnarPreScorePlugin,
  type ColumnarScoreExtensions,
  type ColumnarScorePlugin,
  type ColumnWindow,
  columnarNodeInfos,
  isColumnarFilterPlugin,
  isColumnarScoreExtensions,
  type NodeColumns,
} from "@kubesched/framework/columnar";
import { describe, expectTypeOf, it } from "vitest";

describe("@kubesched/framework/columnar", () => {
  it("columnar plugins are the main entry's plugins with more methods", () => {
    expectTypeOf<ColumnarFilterPlugin>().toExtend<FilterPlugin>();
    expectTypeOf<ColumnarScorePlugin>().toExtend<ScorePlugin>();
    expectTypeOf<ColumnarScoreExtensions>().toExtend<ScoreExtensions>();
    expectTypeOf<ColumnarFilterPlugin["filterColumns"]>().returns.toEqualTypeOf<void>();
    expectTypeOf<ColumnarScorePlugin["scoreColumns"]>().returns.toEqualTypeOf<Status | null>();
  });

  it("columnar methods take the nodes as one ColumnWindow the runtime reuses", () => {
    expectTypeOf<ColumnarFilterPlugin["filterColumns"]>().parameters.toEqualTypeOf<
      [CycleState, Pod, ColumnWindow, (Status | null)[]]
    >();
    expectTypeOf<ColumnarScorePlugin["scoreColumns"]>().parameters.toEqualTypeOf<
      [CycleState, Pod, ColumnWindow, Float64Array]
    >();
    expectTypeOf<ColumnarPreScorePlugin["preScoreColumns"]>().parameters.toEqualTypeOf<
      [CycleState, Pod, ColumnWindow]
    >();
    expectTypeOf<ColumnarScoreExtensions["normalizeScoreColumns"]>().parameters.toEqualTypeOf<
      [CycleState, Pod, ColumnWindow, Float64Array]
    >();
    expectTypeOf<ColumnWindow>().toEqualTypeOf<{
      readonly columns: NodeColumns;
      readonly indices: Int32Array;
      readonly count: number;
    }>();
  });

  it("the columns hold the main entry's NodeInfos", () => {
    expectTypeOf<NodeColumns["nodeInfos"]>().toEqualTypeOf<readonly NodeInfo[]>();
    expectTypeOf<NodeColumns["podCount"]>().toEqualTypeOf<Int32Array>();
    expectTypeOf(columnarNodeInfos).parameters.toEqualTypeOf<[NodeInfoLister]>();
    expectTypeOf(columnarNodeInfos).returns.toEqualTypeOf<ColumnarNodeInfoLister | null>();
  });

  it("the guards narrow", () => {
    const p = {} as Plugin;
    if (isColumnarFilterPlugin(p)) expectTypeOf(p).toExtend<ColumnarFilterPlugin>();
    const e = {} as ScoreExtensions;
    if (isColumnarScoreExtensions(e))
      expectTypeOf(e.normalizeScoreColumns).returns.toEqualTypeOf<Status | null>();
  });
});

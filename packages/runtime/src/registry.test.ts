// Ported from upstream pkg/scheduler/framework/runtime/registry_test.go (TestMerge).
import type { Plugin, PluginDescriptor } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { createRegistry, mergeRegistries } from "./registry";

function desc(name: string): PluginDescriptor {
  return { name, factory: (): Plugin => ({ name: () => name }) };
}

describe("TestMerge", () => {
  const tests: { name: string; primary: string[]; secondary: string[]; want?: string[]; wantErr?: string }[] =
    [
      {
        name: "valid Merge",
        primary: ["pluginFactory1"],
        secondary: ["pluginFactory2"],
        want: ["pluginFactory1", "pluginFactory2"],
      },
      {
        name: "Merge duplicate factories",
        primary: ["pluginFactory1"],
        secondary: ["pluginFactory1"],
        wantErr: "a plugin named pluginFactory1 already exists",
      },
    ];
  for (const tt of tests) {
    it(tt.name, () => {
      const a = createRegistry(tt.primary.map(desc));
      const b = createRegistry(tt.secondary.map(desc));
      if (tt.wantErr) {
        expect(() => mergeRegistries(a, b)).toThrow(tt.wantErr);
        return;
      }
      const merged = mergeRegistries(a, b);
      expect([...merged.keys()]).toEqual(tt.want);
      // The inputs are left untouched.
      expect([...a.keys()]).toEqual(tt.primary);
    });
  }
});

describe("TestRegister", () => {
  it("rejects a repeated name", () => {
    expect(() => createRegistry([desc("a"), desc("a")])).toThrow("a plugin named a already exists");
  });
});

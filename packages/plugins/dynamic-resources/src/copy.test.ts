import { Quantity } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { copyAPIObject } from "./copy";

describe("copyAPIObject", () => {
  it("copies plain data deeply, as structuredClone does", () => {
    const o = {
      metadata: { name: "c", finalizers: ["f"], labels: { a: "1" } },
      spec: { devices: { requests: [{ name: "r", exactly: { count: 2, adminAccess: false } }] } },
      status: Object.freeze({
        allocation: Object.freeze({ devices: Object.freeze({ results: Object.freeze([]) }) }),
      }),
      gone: undefined,
      nothing: null,
    };
    const c = copyAPIObject(o);
    expect(c).toEqual(structuredClone(o));
    expect(c.metadata).not.toBe(o.metadata);
    expect(c.metadata.finalizers).not.toBe(o.metadata.finalizers);
    expect(c.spec.devices.requests[0]).not.toBe(o.spec.devices.requests[0]);
    // Frozen input, unfrozen copy (Reserve copies the allocator's read-only results).
    expect(Object.isFrozen(c.status.allocation)).toBe(false);
    expect(Object.isFrozen(c.status.allocation.devices.results)).toBe(false);
  });

  it("copies other values with structuredClone", () => {
    const q = Quantity.parse("1Gi");
    const d = new Date(0);
    const c = copyAPIObject({ d, m: new Map([["a", 1]]) });
    expect(c.d).toEqual(d);
    expect(c.d).not.toBe(d);
    expect(c.m.get("a")).toBe(1);
    expect(copyAPIObject([1, "a", true, null])).toEqual([1, "a", true, null]);
    expect(q.toString()).toBe("1Gi");
  });
});

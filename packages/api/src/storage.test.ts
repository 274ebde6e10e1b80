import { describe, expect, it } from "vitest";
import {
  BetaStorageClassAnnotation,
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
} from "./storage";

describe("getPersistentVolumeClaimClass / getPersistentVolumeClass", () => {
  it.each([
    { name: "neither", obj: {}, want: "" },
    { name: "field", obj: { spec: { storageClassName: "fast" } }, want: "fast" },
    {
      name: "the beta annotation wins over the field",
      obj: {
        metadata: { annotations: { [BetaStorageClassAnnotation]: "slow" } },
        spec: { storageClassName: "fast" },
      },
      want: "slow",
    },
    {
      name: "an empty annotation still wins",
      obj: {
        metadata: { annotations: { [BetaStorageClassAnnotation]: "" } },
        spec: { storageClassName: "fast" },
      },
      want: "",
    },
  ])("$name", ({ obj, want }) => {
    expect(getPersistentVolumeClaimClass(obj)).toBe(want);
    expect(getPersistentVolumeClass(obj)).toBe(want);
  });
});

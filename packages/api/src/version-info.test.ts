import { describe, expect, it } from "vitest";
import { versionInfoMinor } from "./version-info";

describe("versionInfoMinor", () => {
  it.each([
    ["a plain release", { major: "1", minor: "35", gitVersion: "v1.35.2" }, "1.35"],
    [
      "a vendor build (minor with +)",
      { major: "1", minor: "34+", gitVersion: "v1.34.1-eks-3cfe0ce" },
      "1.34",
    ],
    ["k3s", { major: "1", minor: "33", gitVersion: "v1.33.5+k3s1" }, "1.33"],
    [
      "a server emulating an older release",
      { major: "1", minor: "36", emulationMajor: "1", emulationMinor: "35", gitVersion: "v1.36.0" },
      "1.35",
    ],
    ["no gitVersion: major and minor", { major: "1", minor: "36+", gitVersion: "" }, "1.36"],
    ["nothing that parses", { major: "", minor: "", gitVersion: "unknown" }, null],
  ])("%s", (_name, info, want) => {
    expect(versionInfoMinor(info)).toBe(want);
  });
});

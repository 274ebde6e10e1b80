// The share IDs of consumable-capacity allocations: the same inputs give the same ID (upstream
// generates a random UID). The values were computed with the earlier 64-bit BigInt arithmetic,
// which the 32-bit halves must reproduce.
import { describe, expect, it } from "vitest";
import { shareID } from "./consumable-capacity";

describe("shareID", () => {
  it("gives the IDs of the BigInt FNV-1a implementation it replaced", () => {
    expect(shareID("default/claim-0", "uid-0", "req-0", "dra.example.com/pool-0/dev", "0")).toBe(
      "110f70be-511f-5bb2-0c31-de27242d400d",
    );
    expect(shareID("ns/ü-claim", "", "req/sub", "d/p/x", "12")).toBe("cf83203f-f409-7b10-c713-7ce2c4568943");
    expect(shareID("")).toBe("cbf29ce4-8422-2325-8422-2325cbf29ce4");
  });
});

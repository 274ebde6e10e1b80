// issue 27 item 7: the real-message corpus (tests/fixtures/real-messages). Every FailedScheduling
// message people posted from a real 1.34–1.37 cluster, its cluster rebuilt as a snapshot, comes
// out of `kubesched simulate --emulated-version R` (the CLI as users run it) byte for byte, for
// every release R the post's evidence allows.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCliIn } from "./run-cli.test-util";

const dir = fileURLToPath(new URL("../../tests/fixtures/real-messages/", import.meta.url));

interface Case {
  id: string;
  file: string;
  pod: string;
  releases: string[];
  compare: "exact" | "prefix";
  message: string;
  source: string;
  evidence: string;
}

const { cases } = parseYAML(readFileSync(`${dir}cases.yaml`, "utf8")) as { cases: Case[] };

describe("the real-message corpus", () => {
  it("holds at least 15 posted messages from at least three releases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(new Set(cases.flatMap((c) => c.releases)).size).toBeGreaterThanOrEqual(3);
  });

  it("README.md lists every case with its releases and message", () => {
    const readme = readFileSync(`${dir}README.md`, "utf8");
    for (const c of cases) {
      const row = readme.split("\n").find((l) => l.startsWith(`| ${c.id} `));
      expect(row, c.id).toBeDefined();
      expect(row).toContain(c.releases.join(", "));
      expect(row).toContain(c.message.trim());
    }
  });

  for (const c of cases) {
    for (const release of c.releases) {
      it(`${c.id} at ${release}: the posted message`, async () => {
        const r = await runCliIn(dir, [
          "simulate",
          "--cluster",
          c.file,
          "--emulated-version",
          release,
          "-o",
          "json",
        ]);
        expect(r.code, r.stderr).toBe(0);
        const [namespace, name] = c.pod.split("/");
        const pod = (
          JSON.parse(r.stdout) as { pods: { namespace: string; name: string; message: string | null }[] }
        ).pods.find((p) => p.namespace === namespace && p.name === name);
        if (c.compare === "prefix")
          expect(pod?.message?.startsWith(c.message), pod?.message ?? "").toBe(true);
        else expect(pod?.message).toBe(c.message);
      });
    }
  }
});

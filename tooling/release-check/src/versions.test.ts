// The versions the real `changeset version` produces from the repository's manifests and
// .changeset/config.json, in the situations plugin users care about.
import { describe, expect, it } from "vitest";
import { changedVersions, fixedGroups, releasedAt, runChangesetVersion, versionProblems } from "./versions";
import { isPluginPackage, type Manifest, workspacePackages } from "./workspace";

const fixed = fixedGroups();
const core = fixed[0] as string[];
const plugins = workspacePackages()
  .filter((p) => isPluginPackage(p.manifest))
  .map((p) => p.manifest.name);

/** How the repository was configured before onlyUpdatePeerDependentsWhenOutOfRange and real peer ranges. */
function previousSetup(m: Manifest): void {
  if (m.peerDependencies?.["@kubesched/framework"])
    m.peerDependencies["@kubesched/framework"] = "workspace:^";
}
function withoutPeerOption(c: Record<string, unknown>): void {
  delete c.___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH;
}

describe("changeset version", { timeout: 120_000 }, () => {
  it("releases the pending changesets without promoting any plugin to 1.0.0", () => {
    const { before, after } = runChangesetVersion({ pending: true });
    expect(versionProblems(before, after, fixed)).toEqual([]);
    for (const p of after) if (!p.manifest.private) expect(p.manifest.version).toMatch(/^0\./);
  });

  it("with workspace:^ peer ranges and without onlyUpdatePeerDependentsWhenOutOfRange, the same changesets made every plugin 1.0.0", () => {
    const { before, after } = runChangesetVersion({
      pending: true,
      edit: previousSetup,
      editConfig: withoutPeerOption,
    });
    const promoted = after.filter((p) => p.manifest.version === "1.0.0").map((p) => p.manifest.name);
    expect(promoted.sort()).toEqual([...plugins].sort());
    expect(versionProblems(before, after, fixed).length).toBeGreaterThanOrEqual(plugins.length);
  });

  it("a framework patch releases the core packages (in lockstep) and no plugin", () => {
    const { before, after } = runChangesetVersion({
      pending: false,
      edit: releasedAt("0.1.0"),
      changesets: [{ releases: { "@kubesched/framework": "patch" }, summary: "A fix." }],
    });
    expect(changedVersions(before, after)).toEqual(
      Object.fromEntries(core.map((n) => [n, ["0.1.0", "0.1.1"]])),
    );
    expect(versionProblems(before, after, fixed)).toEqual([]);
  });

  it("a minor changeset on a plugin gives that plugin a minor release; the in-tree registry takes it in a patch", () => {
    const { before, after } = runChangesetVersion({
      pending: false,
      edit: releasedAt("0.1.0"),
      changesets: [{ releases: { "@kubesched/plugin-node-affinity": "minor" }, summary: "A feature." }],
    });
    expect(changedVersions(before, after)).toEqual({
      "@kubesched/plugin-node-affinity": ["0.1.0", "0.2.0"],
      "@kubesched/plugins-in-tree": ["0.1.0", "0.1.1"],
    });
    expect(versionProblems(before, after, fixed)).toEqual([]);
  });

  it("a framework minor that leaves the plugins' peer range is caught, with what to do", () => {
    const { before, after } = runChangesetVersion({
      pending: false,
      edit: releasedAt("0.1.0"),
      changesets: [{ releases: { "@kubesched/framework": "minor" }, summary: "A breaking change." }],
    });
    const problems = versionProblems(before, after, fixed);
    expect(problems).toContain(
      '@kubesched/plugin-node-affinity: peerDependencies["@kubesched/framework"] "^0.1.0" does not admit @kubesched/framework 0.2.0, released with it: widen the range if the plugin works with 0.2.0 (e.g. "^0.1.0 || ^0.2.0"), or update the plugin in the same change',
    );
  });

  it("a framework minor inside the plugins' stated range gives the plugins a patch for their @kubesched/api range (and a 1.0.0 without onlyUpdatePeerDependentsWhenOutOfRange)", () => {
    const widened = (m: Manifest) => {
      releasedAt("0.1.0")(m);
      if (m.peerDependencies?.["@kubesched/framework"])
        m.peerDependencies["@kubesched/framework"] = ">=0.1.0 <0.3.0";
    };
    const minor = [{ releases: { "@kubesched/framework": "minor" as const }, summary: "New API." }];
    const withOption = runChangesetVersion({ pending: false, edit: widened, changesets: minor });
    // The core moves to 0.2.0 in lockstep; each plugin depends on @kubesched/api ^0.1.0, which 0.2.0
    // leaves, so it is re-released in a patch with ^0.2.0 (no plugin becomes 1.0.0).
    expect(changedVersions(withOption.before, withOption.after)).toEqual({
      ...Object.fromEntries(core.map((n) => [n, ["0.1.0", "0.2.0"]])),
      ...Object.fromEntries(plugins.map((n) => [n, ["0.1.0", "0.1.1"]])),
    });
    expect(versionProblems(withOption.before, withOption.after, fixed)).toEqual([]);

    const without = runChangesetVersion({
      pending: false,
      edit: widened,
      editConfig: withoutPeerOption,
      changesets: minor,
    });
    expect(
      without.after
        .filter((p) => p.manifest.version === "1.0.0")
        .map((p) => p.manifest.name)
        .sort(),
    ).toEqual([...plugins].sort());
  });
});

// --feature-gates and gate dependencies, per emulated release (component-base
// featuregate/feature_gate.go `unsafeSetFromMap` since kubernetes/kubernetes#133697; the declared
// dependencies of pkg/features/kube_features.go, kubernetes/kubernetes#133912).
import { describe, expect, it } from "vitest";
import { dependencyRows135, dependencyRows137 } from "./feature-gate-dependencies";
import {
  featureGateDependencies,
  featureGateSpec,
  parseFeatureGates,
  type Release,
  supportedReleases,
} from "./feature-gates";

/** What --feature-gates VALUE says at `release`: "ok" or upstream's refusal. */
const verdict = (value: string, release: Release): string => {
  try {
    parseFeatureGates([value], release);
    return "ok";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("feature-gate dependencies", () => {
  it("are not checked before 1.35: component-base had no dependencies then", () => {
    for (const release of ["1.33", "1.34"] as const) {
      expect(featureGateDependencies(release).size).toBe(0);
      expect(verdict("GracefulNodeShutdown=false", release)).toBe("ok");
      expect(verdict("ProcMountType=true,UserNamespacesSupport=false", release)).toBe("ok");
    }
  });

  it("refuse disabling a gate that default-on gates depend on, from 1.35 (every enabled dependent, by name)", () => {
    // GracefulNodeShutdownBasedOnPodPriority (beta since 1.24) and WindowsGracefulNodeShutdown (beta,
    // on since 1.34) depend on GracefulNodeShutdown: a manifest that turns it off starts a 1.34
    // kube-scheduler and stops a 1.35 one. Several errors read as Go's utilerrors aggregate.
    const both =
      "[GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown], WindowsGracefulNodeShutdown is enabled, but depends on features that are disabled: [GracefulNodeShutdown]]";
    expect(verdict("GracefulNodeShutdown=false", "1.34")).toBe("ok");
    for (const release of ["1.35", "1.36", "1.37"] as const) {
      expect(verdict("GracefulNodeShutdown=false", release)).toBe(both);
      // One dependent turned off too: one error, as is (no brackets).
      expect(verdict("GracefulNodeShutdown=false,WindowsGracefulNodeShutdown=false", release)).toBe(
        "GracefulNodeShutdownBasedOnPodPriority is enabled, but depends on features that are disabled: [GracefulNodeShutdown]",
      );
      // Every dependent off: accepted.
      expect(
        verdict(
          "GracefulNodeShutdown=false,WindowsGracefulNodeShutdown=false,GracefulNodeShutdownBasedOnPodPriority=false",
          release,
        ),
      ).toBe("ok");
    }
  });

  it("refuse enabling a gate without the gates it depends on", () => {
    expect(verdict("ProcMountType=true,UserNamespacesSupport=false", "1.35")).toBe(
      "ProcMountType is enabled, but depends on features that are disabled: [UserNamespacesSupport]",
    );
    // 1.36 locks UserNamespacesSupport: the lock is what refuses first (no dependency check then).
    expect(verdict("ProcMountType=true,UserNamespacesSupport=false", "1.36")).toBe(
      "cannot set feature gate UserNamespacesSupport to false, feature is locked to true",
    );
    // DRADeviceTaintRules (GA, on in 1.37) needs DRADeviceTaints; in 1.36 the rules were beta, off.
    expect(verdict("DRADeviceTaints=false", "1.37")).toBe(
      "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]",
    );
    expect(verdict("DRADeviceTaints=false", "1.36")).toBe("ok");
    expect(verdict("DRADeviceTaintRules=true,DRADeviceTaints=false", "1.36")).toBe(
      "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]",
    );
    expect(verdict("DRADeviceTaintRules=true,DRADeviceTaints=true", "1.35")).toBe("ok");
    // ClusterTrustBundleProjection (beta, off through 1.36) without ClusterTrustBundle (beta, off).
    expect(verdict("ClusterTrustBundleProjection=true,PodCertificateRequest=true", "1.36")).toBe(
      "ClusterTrustBundleProjection is enabled, but depends on features that are disabled: [ClusterTrustBundle]",
    );
    expect(
      verdict("ClusterTrustBundle=true,ClusterTrustBundleProjection=true,PodCertificateRequest=true", "1.36"),
    ).toBe("ok");
  });

  it("name every disabled dependency, sorted as component-base sorts them", () => {
    expect(verdict("CompositePodGroup=true", "1.37")).toBe(
      "CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload TopologyAwareWorkloadScheduling]",
    );
    expect(verdict("CompositePodGroup=true,GenericWorkload=true", "1.37")).toBe(
      "CompositePodGroup is enabled, but depends on features that are disabled: [TopologyAwareWorkloadScheduling]",
    );
    expect(
      verdict("CompositePodGroup=true,GenericWorkload=true,TopologyAwareWorkloadScheduling=true", "1.37"),
    ).toBe("ok");
  });

  it("count gates AllAlpha / AllBeta turn on: AllAlpha=true in 1.37 leaves beta GenericWorkload off", () => {
    expect(verdict("AllAlpha=true", "1.37")).toBe(
      "[CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload], PodGroupPreemptionPolicy is enabled, but depends on features that are disabled: [GenericWorkload], TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload], WorkloadWithJob is enabled, but depends on features that are disabled: [GenericWorkload]]",
    );
    expect(verdict("AllAlpha=true,AllBeta=true", "1.37")).toBe("ok");
    // In 1.36 GenericWorkload was alpha itself.
    expect(verdict("AllAlpha=true", "1.36")).toBe("ok");
  });

  it("are checked only once every setting is accepted (a refused setting reports alone)", () => {
    expect(verdict("GracefulNodeShutdown=false,NoSuchGate=true", "1.35")).toBe(
      "unrecognized feature gate: NoSuchGate",
    );
  });

  it("1.36: the 1.37 list plus the 1.35 pairs whose gates 1.37 removed", () => {
    const at = (release: Release, gate: string) => featureGateDependencies(release).get(gate);
    expect(at("1.35", "GangScheduling")).toEqual(["GenericWorkload"]);
    expect(at("1.36", "GangScheduling")).toEqual(["GenericWorkload"]);
    expect(at("1.37", "GangScheduling")).toBeUndefined();
    expect(at("1.36", "PodLifecycleSleepActionAllowZero")).toEqual(["PodLifecycleSleepAction"]);
    expect(at("1.36", "InPlacePodVerticalScalingExclusiveMemory")).toEqual([
      "InPlacePodVerticalScaling",
      "MemoryManager",
    ]);
    expect(at("1.37", "InPlacePodVerticalScalingExclusiveMemory")).toEqual(["InPlacePodVerticalScaling"]);
    expect(at("1.36", "UserNamespacesHostNetworkSupport")).toEqual([
      "NodeDeclaredFeatures",
      "UserNamespacesSupport",
    ]);
    expect(verdict("PodLifecycleSleepAction=false", "1.36")).toBe(
      "PodLifecycleSleepActionAllowZero is enabled, but depends on features that are disabled: [PodLifecycleSleepAction]",
    );
  });

  it("name only gates the release knows, and every release's defaults satisfy them", () => {
    for (const [release, rows] of [
      ["1.35", dependencyRows135],
      ["1.37", dependencyRows137],
    ] as const) {
      for (const [gate, ...deps] of rows) {
        for (const name of [gate, ...deps]) expect(featureGateSpec(name, release), name).toBeDefined();
      }
    }
    for (const release of supportedReleases) {
      expect(verdict("", release)).toBe("ok");
      expect(verdict("AllBeta=true", release)).toBe("ok");
      expect(verdict("AllBeta=false", release)).toBe("ok");
    }
  });
});

// upstream: volume_zone.go (topologyLabels, translateToGALabel, getPVTopologies) and
// k8s.io/cloud-provider/volume/helpers (LabelZonesToSet).
import {
  LabelFailureDomainBetaRegion,
  LabelFailureDomainBetaZone,
  LabelTopologyRegion,
  LabelTopologyZone,
  type PersistentVolume,
} from "@kubesched/api";

export const topologyLabels: readonly string[] = [
  LabelFailureDomainBetaZone,
  LabelFailureDomainBetaRegion,
  LabelTopologyZone,
  LabelTopologyRegion,
];

/** The GA label for a beta failure-domain label (others unchanged). */
export function translateToGALabel(label: string): string {
  if (label === LabelFailureDomainBetaRegion) return LabelTopologyRegion;
  if (label === LabelFailureDomainBetaZone) return LabelTopologyZone;
  return label;
}

/** A PV's value for one topology label: the allowed zones (or regions). */
export interface PVTopology {
  pvName: string;
  key: string;
  values: ReadonlySet<string>;
}

/** `a__b` → {a, b}; null when an element is empty (the label is then ignored, as upstream). */
export function labelZonesToSet(value: string): Set<string> | null {
  const out = new Set<string>();
  for (const z of value.split("__")) {
    const t = z.trim();
    if (t === "") return null;
    out.add(t);
  }
  return out;
}

export function getPVTopologies(pv: PersistentVolume): PVTopology[] {
  const out: PVTopology[] = [];
  const labels = pv.metadata?.labels;
  if (!labels) return out;
  for (const key of topologyLabels) {
    const value = labels[key];
    if (value === undefined) continue;
    const values = labelZonesToSet(value);
    if (!values) continue;
    out.push({ pvName: pv.metadata?.name ?? "", key, values });
  }
  return out;
}

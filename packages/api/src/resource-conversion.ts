// Reading resource.k8s.io objects of any served version as v1, as the API server does: decode,
// default, convert. upstream (kubernetes/kubernetes 2e0908106e4, 1.37):
// pkg/apis/resource/v1beta1/conversion.go (requests' fields move under `exactly`, a device's
// `basic` is flattened, an empty nodeName / false allNodes is unset), defaults.go;
// pkg/apis/resource/v1beta2 converts field for field (v1 was copied from it);
// pkg/apis/resource/v1/defaults.go (allocationMode ExactCount, count 1, toleration operator Equal).
// DeviceTaintRule: v1alpha3 / v1beta2 / v1 types.go (KEP-5055: selector by driver, pool, device
// since 1.35), converted field for field.
import { isJsonObject } from "./json";
import { ResourceAPIVersion } from "./resource-v1";

/** The kinds of resource.k8s.io the scheduler reads. */
export const resourceKinds = [
  "ResourceClaim",
  "ResourceClaimTemplate",
  "ResourceSlice",
  "DeviceClass",
  "DeviceTaintRule",
] as const;
export type ResourceKind = (typeof resourceKinds)[number];

/** The versions of resource.k8s.io that serve the kinds above (1.37), newest first. */
export const resourceAPIVersions = [ResourceAPIVersion, "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"];

/**
 * The versions that serve DeviceTaintRule: v1 (1.37, GA), v1beta2 (1.36, beta), v1alpha3 (1.33–1.35).
 * The three are field for field the same since 1.35 (driver/pool/device selector, taint, status).
 */
export const deviceTaintRuleAPIVersions = [
  ResourceAPIVersion,
  "resource.k8s.io/v1beta2",
  "resource.k8s.io/v1alpha3",
];

type Json = Record<string, unknown>;

/**
 * The object in resource.k8s.io/v1 with v1's defaults, or a one-line reason why it cannot be
 * read (an unserved version). The input is not modified.
 */
export function convertResourceObjectToV1(
  obj: Record<string, unknown>,
): { obj: Record<string, unknown> } | { error: string } {
  const apiVersion = obj.apiVersion;
  const served = obj.kind === "DeviceTaintRule" ? deviceTaintRuleAPIVersions : resourceAPIVersions;
  if (typeof apiVersion !== "string" || !served.includes(apiVersion)) {
    return {
      error: `apiVersion: Unsupported value: ${JSON.stringify(apiVersion)}: supported values: ${served.map((v) => `"${v}"`).join(", ")}`,
    };
  }
  const copy = structuredClone(obj);
  const out = apiVersion === "resource.k8s.io/v1beta1" ? fromV1beta1(copy) : copy;
  out.apiVersion = ResourceAPIVersion;
  setDefaults(out);
  return { obj: out };
}

/** The fields of a v1beta1 DeviceRequest that v1 keeps under `exactly`. */
const exactFields = [
  "deviceClassName",
  "selectors",
  "allocationMode",
  "count",
  "adminAccess",
  "tolerations",
  "capacity",
] as const;

function fromV1beta1(obj: Json): Json {
  switch (obj.kind) {
    case "ResourceClaim":
      convertClaimSpec(obj.spec);
      break;
    case "ResourceClaimTemplate":
      if (isJsonObject(obj.spec)) convertClaimSpec(obj.spec.spec);
      break;
    case "ResourceSlice":
      convertSliceSpec(obj.spec);
      break;
  }
  return obj;
}

/** upstream Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest. */
function convertClaimSpec(spec: unknown): void {
  if (!isJsonObject(spec) || !isJsonObject(spec.devices) || !Array.isArray(spec.devices.requests)) return;
  spec.devices.requests = spec.devices.requests.map((r: unknown) => {
    if (!isJsonObject(r)) return r;
    const out: Json = {};
    const exactly: Json = {};
    // hasAnyMainRequestFieldsSet: a zero value (empty class, count 0) counts as unset.
    let any = false;
    for (const [k, v] of Object.entries(r)) {
      if ((exactFields as readonly string[]).includes(k)) {
        exactly[k] = v;
        if (v !== undefined && v !== null && v !== "" && v !== 0) any = true;
      } else out[k] = v;
    }
    if (any) out.exactly = exactly;
    return out;
  });
}

/** upstream Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec and …_Device_…. */
function convertSliceSpec(spec: unknown): void {
  if (!isJsonObject(spec)) return;
  if (spec.nodeName === "") delete spec.nodeName;
  if (spec.allNodes === false) delete spec.allNodes;
  if (!Array.isArray(spec.devices)) return;
  spec.devices = spec.devices.map((d: unknown) => {
    if (!isJsonObject(d)) return d;
    const { basic, ...rest } = d;
    return isJsonObject(basic) ? { ...rest, ...basic } : rest;
  });
}

function defaultCount(r: Json): void {
  if (r.allocationMode === undefined || r.allocationMode === "") r.allocationMode = "ExactCount";
  if (r.allocationMode === "ExactCount" && (r.count === undefined || r.count === 0)) r.count = 1;
}

function defaultTolerations(r: Json): void {
  if (!Array.isArray(r.tolerations)) return;
  for (const t of r.tolerations) {
    if (isJsonObject(t) && (t.operator === undefined || t.operator === "")) t.operator = "Equal";
  }
}

/** upstream pkg/apis/resource/v1/defaults.go and the `+default` tags of v1 types. */
function setDefaults(obj: Json): void {
  const spec =
    obj.kind === "ResourceClaimTemplate" ? (isJsonObject(obj.spec) ? obj.spec.spec : undefined) : obj.spec;
  if (obj.kind === "ResourceClaim" || obj.kind === "ResourceClaimTemplate") {
    if (!isJsonObject(spec) || !isJsonObject(spec.devices) || !Array.isArray(spec.devices.requests)) return;
    for (const r of spec.devices.requests) {
      if (!isJsonObject(r)) continue;
      if (isJsonObject(r.exactly)) {
        defaultCount(r.exactly);
        defaultTolerations(r.exactly);
      }
      if (Array.isArray(r.firstAvailable)) {
        for (const s of r.firstAvailable) {
          if (!isJsonObject(s)) continue;
          defaultCount(s);
          defaultTolerations(s);
        }
      }
    }
  }
}

// upstream: pkg/capacityscheduling/elasticquota_test.go
import { Resource } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { ElasticQuotaInfo } from "./elastic-quota";

const ResourceGPU = "nvidia.com/gpu";

function res(r: { cpu?: number; mem?: number; eph?: number; gpu?: number }): Resource {
  const out = new Resource();
  out.milliCPU = r.cpu ?? 0;
  out.memory = r.mem ?? 0;
  out.ephemeralStorage = r.eph ?? 0;
  if (r.gpu !== undefined) out.setScalar(ResourceGPU, r.gpu);
  return out;
}

function info(used: Resource, min: Resource | null, max: Resource | null): ElasticQuotaInfo {
  return new ElasticQuotaInfo("ns1", min, max, used);
}

describe("TestReserveResource", () => {
  it("ElasticQuotaInfo ReserveResource", () => {
    const eq = info(res({ cpu: 1000, mem: 200, gpu: 2 }), null, null);
    eq.reserveResource(res({ cpu: 100, mem: 1000, gpu: 1 }));
    eq.reserveResource(res({ cpu: 1000, mem: 200, gpu: 2 }));
    expect(eq.used).toEqual(res({ cpu: 2100, mem: 1400, gpu: 5 }));
  });
});

describe("TestUnReserveResource", () => {
  it("ElasticQuotaInfo UnReserveResource", () => {
    const eq = info(res({ cpu: 4000, mem: 200, gpu: 5 }), null, null);
    eq.unreserveResource(res({ cpu: 100, mem: 100, gpu: 1 }));
    eq.unreserveResource(res({ cpu: 1000, mem: 50, gpu: 2 }));
    expect(eq.used).toEqual(res({ cpu: 2900, mem: 50, gpu: 2 }));
  });
});

describe("TestUsedOverMinWith", () => {
  const cases = [
    {
      name: "ElasticQuotaInfo OverMinWith Sum Of PodRequest And Used Is Bigger Than Min",
      before: info(res({ cpu: 4000, mem: 200, gpu: 5 }), res({ cpu: 3000, mem: 100, gpu: 5 }), null),
      podRequest: res({ cpu: 1500, mem: 100 }),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMinWith Sum Of PodRequest And Used Is Not Bigger Than Min",
      before: info(res({ cpu: 300, mem: 100, gpu: 5 }), res({ cpu: 4000, mem: 200, gpu: 5 }), null),
      podRequest: res({ cpu: 100, mem: 50 }),
      expected: false,
    },
    {
      name: "ElasticQuotaInfo OverMinWith ElasticQuotaInfo Doesn't Have Max",
      before: info(res({ cpu: 3900, mem: 100, gpu: 5 }), null, null),
      podRequest: res({ cpu: 100, mem: 100 }),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMinWith Used And Min Don't Have GPU Value",
      before: info(res({ cpu: 10, mem: 10 }), res({ cpu: 3000, mem: 100 }), null),
      podRequest: res({ cpu: 10, mem: 10, gpu: 5 }),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMinWith EphemeralStorage",
      before: info(res({ cpu: 10, mem: 10, eph: 10 }), res({ cpu: 3000, mem: 100, eph: 100 }), null),
      podRequest: res({ cpu: 10, mem: 10, eph: 10 }),
      expected: false,
    },
  ];
  for (const tc of cases)
    it(tc.name, () => expect(tc.before.usedOverMinWith(tc.podRequest)).toBe(tc.expected));
});

describe("TestUsedOverMaxWith", () => {
  const cases = [
    {
      name: "ElasticQuotaInfo OverMaxWith Sum Of PodRequest And Used Is Bigger Than Max",
      before: info(res({ cpu: 4000, mem: 200, gpu: 5 }), null, res({ cpu: 4000, mem: 200, gpu: 5 })),
      podRequest: res({ cpu: 100, mem: 100 }),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMaxWith Sum Of PodRequest And Used Is Not Bigger Than Max",
      before: info(res({ cpu: 3900, mem: 100, gpu: 5 }), null, res({ cpu: 4000, mem: 200, gpu: 5 })),
      podRequest: res({ cpu: 100, mem: 100 }),
      expected: false,
    },
    {
      name: "ElasticQuotaInfo OverMaxWith ElasticQuotaInfo Doesn't Have Max",
      before: info(res({ cpu: 3900, mem: 100, gpu: 5 }), null, null),
      podRequest: res({ cpu: 100, mem: 100 }),
      expected: false,
    },
    {
      name: "ElasticQuotaInfo OverMaxWith Used And Max Don't Have GPU Value",
      before: info(res({ cpu: 10, mem: 10 }), null, res({ cpu: 3000, mem: 100 })),
      podRequest: res({ cpu: 10, mem: 10, gpu: 5 }),
      expected: false,
    },
    {
      name: "ElasticQuotaInfo OverMaxWith EphemeralStorage",
      before: info(res({ cpu: 10, mem: 10, eph: 10 }), null, res({ cpu: 3000, mem: 100, eph: 100 })),
      podRequest: res({ cpu: 10, mem: 10, eph: 100 }),
      expected: true,
    },
  ];
  for (const tc of cases)
    it(tc.name, () => expect(tc.before.usedOverMaxWith(tc.podRequest)).toBe(tc.expected));
});

describe("TestUsedOverMin", () => {
  const cases = [
    {
      name: "ElasticQuotaInfo OverMin Used Is Bigger Than Min",
      before: info(res({ cpu: 4000, mem: 200, gpu: 5 }), res({ cpu: 3000, mem: 300, gpu: 5 }), null),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMin Used Is Not Bigger Than Min",
      before: info(res({ cpu: 300, mem: 100, gpu: 5 }), res({ cpu: 4000, mem: 200, gpu: 5 }), null),
      expected: false,
    },
    {
      name: "ElasticQuotaInfo OverMin ElasticQuotaInfo Doesn't Have Min",
      before: info(res({ cpu: 3900, mem: 100, gpu: 5 }), null, null),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMin Used Has GPU But Min Doesn't Have GPU",
      before: info(res({ cpu: 300, mem: 100, gpu: 5 }), res({ cpu: 4000, mem: 200 }), null),
      expected: true,
    },
    {
      name: "ElasticQuotaInfo OverMin EphemeralStorage",
      before: info(res({ cpu: 300, mem: 100, eph: 100 }), res({ cpu: 4000, mem: 200, eph: 10 }), null),
      expected: true,
    },
  ];
  for (const tc of cases) it(tc.name, () => expect(tc.before.usedOverMin()).toBe(tc.expected));
});

describe("TestNewElasticQuotaInfo", () => {
  it("ElasticQuota Without Max and Min", () => {
    const eq = ElasticQuotaInfo.of("ns1");
    expect(eq.min).toEqual(res({}));
    expect(eq.max?.milliCPU).toBe(Number.MAX_SAFE_INTEGER);
    expect(eq.max?.memory).toBe(Number.MAX_SAFE_INTEGER);
    expect(eq.max?.ephemeralStorage).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("ElasticQuota", () => {
    const eq = ElasticQuotaInfo.of("ns1", { cpu: "100m", memory: "1000" }, { cpu: "200m", memory: "2000" });
    expect(eq.min).toEqual(res({ cpu: 100, mem: 1000 }));
    expect(eq.max).toEqual(res({ cpu: 200, mem: 2000 }));
    expect(eq.used).toEqual(res({}));
  });
});

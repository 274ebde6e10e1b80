// upstream: pkg/scheduler/framework/types.go (HostPortInfo), pkg/scheduler/util/utils.go (GetHostPorts)
import type { ContainerPort, Pod } from "kubernetes-types/core/v1.js";

/** The host IP that means "every address". */
export const DefaultBindAllHostIP = "0.0.0.0";
const DefaultProtocol = "TCP";

/**
 * Host ports in use on a node: ip → protocol → ports. `0.0.0.0` conflicts with every IP on the
 * same protocol and port. Lookups do not allocate.
 */
export class HostPortInfo {
  private readonly byIP = new Map<string, Map<string, Set<number>>>();

  /** Records a port; ports <= 0 are ignored, empty ip means 0.0.0.0, empty protocol TCP. */
  add(ip: string | undefined, protocol: string | undefined, port: number | undefined): void {
    if (port === undefined || port <= 0) return;
    const sip = ip || DefaultBindAllHostIP;
    const sproto = protocol || DefaultProtocol;
    let byProto = this.byIP.get(sip);
    if (byProto === undefined) {
      byProto = new Map();
      this.byIP.set(sip, byProto);
    }
    let ports = byProto.get(sproto);
    if (ports === undefined) {
      ports = new Set();
      byProto.set(sproto, ports);
    }
    ports.add(port);
  }

  remove(ip: string | undefined, protocol: string | undefined, port: number | undefined): void {
    if (port === undefined || port <= 0) return;
    const sip = ip || DefaultBindAllHostIP;
    const sproto = protocol || DefaultProtocol;
    const byProto = this.byIP.get(sip);
    if (byProto === undefined) return;
    const ports = byProto.get(sproto);
    if (ports === undefined) return;
    ports.delete(port);
    if (ports.size === 0) byProto.delete(sproto);
    if (byProto.size === 0) this.byIP.delete(sip);
  }

  /** The number of (ip, protocol, port) entries. */
  len(): number {
    let n = 0;
    for (const byProto of this.byIP.values()) for (const ports of byProto.values()) n += ports.size;
    return n;
  }

  /** True if using (ip, protocol, port) would conflict with a recorded port. */
  checkConflict(ip: string | undefined, protocol: string | undefined, port: number | undefined): boolean {
    if (port === undefined || port <= 0) return false;
    const sip = ip || DefaultBindAllHostIP;
    const sproto = protocol || DefaultProtocol;
    if (sip === DefaultBindAllHostIP) {
      // 0.0.0.0 conflicts with the same (protocol, port) on any IP.
      for (const byProto of this.byIP.values()) {
        if (byProto.get(sproto)?.has(port) === true) return true;
      }
      return false;
    }
    if (this.byIP.get(DefaultBindAllHostIP)?.get(sproto)?.has(port) === true) return true;
    return this.byIP.get(sip)?.get(sproto)?.has(port) === true;
  }

  /** True when no port is recorded. */
  isEmpty(): boolean {
    return this.byIP.size === 0;
  }

  clone(): HostPortInfo {
    const out = new HostPortInfo();
    // Most nodes use no host port (NodeInfo copies clone this for every preemption candidate).
    if (this.byIP.size === 0) return out;
    for (const [ip, byProto] of this.byIP) {
      const copy = new Map<string, Set<number>>();
      for (const [proto, ports] of byProto) copy.set(proto, new Set(ports));
      out.byIP.set(ip, copy);
    }
    return out;
  }

  /** Every entry, for debugging and serialization. */
  entries(): { ip: string; protocol: string; port: number }[] {
    const out: { ip: string; protocol: string; port: number }[] = [];
    for (const [ip, byProto] of this.byIP) {
      for (const [protocol, ports] of byProto) for (const port of ports) out.push({ ip, protocol, port });
    }
    return out;
  }
}

/**
 * The host ports (hostPort > 0) the pods use: restartable init containers (sidecars, which run
 * for the pod's lifetime) first, then regular containers, as upstream GetHostPorts.
 */
export function getContainerPorts(...pods: Pod[]): ContainerPort[] {
  const out: ContainerPort[] = [];
  for (const pod of pods) {
    const spec = pod?.spec;
    if (spec == null) continue;
    for (const c of spec.initContainers ?? []) {
      if (c.restartPolicy !== "Always") continue;
      for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) out.push(p);
    }
    for (const c of spec.containers ?? []) {
      for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) out.push(p);
    }
  }
  return out;
}

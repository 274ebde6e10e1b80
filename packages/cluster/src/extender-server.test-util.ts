// A scheduler extender for tests: an HTTP server on 127.0.0.1 (port 0) that answers each POST to
// `<url>/<verb>` as the test says, and the pieces of snapshot the extender tests share.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ExtenderServer {
  /** The urlPrefix to configure: `http://127.0.0.1:<port>/ext`. */
  url: string;
  /** The verbs called, in order. */
  readonly calls: string[];
  close(): Promise<void>;
}

/** Starts the server; `answer` gets the verb, the decoded request and the response to write. */
export async function startExtenderServer(
  answer: (verb: string, args: Record<string, unknown>, res: ServerResponse) => void,
): Promise<ExtenderServer> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      const verb = (req.url ?? "").replace(/^\/ext\//, "");
      calls.push(verb);
      answer(verb, JSON.parse(data) as Record<string, unknown>, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ext`,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Writes a 200 answer with `text` as the body. */
export function answer200(res: ServerResponse, text: string | Buffer): void {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(text);
}

/** A Node document with `cpu` allocatable, labelled with its hostname. */
export const nodeYAML = (name: string, cpu: string) => `apiVersion: v1
kind: Node
metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name} } }
status: { allocatable: { cpu: "${cpu}", memory: 8Gi, pods: "110" } }
---
`;

/**
 * A PriorityClass "high", a node "n2" full of a running low-priority pod ("low", UID low-uid) and
 * a pending high-priority pod ("urgent") that can only go to n2 by preempting it.
 */
export const preemptionYAML = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: { name: high }
value: 1000
---
${nodeYAML("n2", "2")}apiVersion: v1
kind: Pod
metadata: { name: low, uid: low-uid }
spec: { nodeName: n2, containers: [{ name: c, image: i, resources: { requests: { cpu: "2" } } }] }
---
apiVersion: v1
kind: Pod
metadata: { name: urgent }
spec:
  priorityClassName: high
  nodeSelector: { kubernetes.io/hostname: n2 }
  containers: [{ name: c, image: i, resources: { requests: { cpu: "2" } } }]
`;

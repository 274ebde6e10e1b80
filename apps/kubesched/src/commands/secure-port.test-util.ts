// The secure port from outside, for tests of `kubesched run` as a process or a container: a free
// port to give it, and GETs as a kubelet probe or Prometheus makes them.
import https from "node:https";
import net from "node:net";

/** A port free now on 127.0.0.1 (the CLI takes a number, not 0-and-report). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The status of a GET over TLS (the certificate is self-signed: not verified); 0 when it fails. */
export function httpsStatus(port: number, path: string, token?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port,
        path,
        rejectUnauthorized: false,
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end();
  });
}

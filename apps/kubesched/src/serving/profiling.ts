// /debug/pprof: V8's counterparts of Go's net/http/pprof handlers (upstream routes.Profiling): a
// CPU profile over ?seconds=N (.cpuprofile) and a heap snapshot (.heapsnapshot), both for Chrome
// DevTools. One of each at a time, as Go's pprof refuses a second CPU profile ("cpu profiling
// already in use"): a heap snapshot stops the process while it is taken and can double its
// memory. A heap snapshot holds every string of the process, credentials included: these paths
// are served only on the secure port, to users the API server authorizes (secure-serving.ts).
import type http from "node:http";
import { Session } from "node:inspector";
import { pipeline } from "node:stream";
import { getHeapSnapshot } from "node:v8";
import { writeText } from "./responses";

// Per process, as the profilers they guard.
let cpuProfileRunning = false;
let heapSnapshotRunning = false;

/** Records a CPU profile for `seconds`, or until `stop` aborts. */
async function cpuProfile(seconds: number, stop: AbortSignal): Promise<string> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
    );
  try {
    await post("Profiler.enable");
    await post("Profiler.start");
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      stop.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    const { profile } = (await post("Profiler.stop")) as { profile: unknown };
    return JSON.stringify(profile);
  } finally {
    session.disconnect();
  }
}

const index =
  "/debug/pprof/profile?seconds=N  V8 CPU profile (.cpuprofile, Chrome DevTools)\n/debug/pprof/heap  V8 heap snapshot (.heapsnapshot)\n";

/** Serves a /debug/pprof path; false when `path` is not one. */
export async function serveProfiling(url: URL, res: http.ServerResponse): Promise<boolean> {
  const path = url.pathname;
  if (path === "/debug/pprof" || path === "/debug/pprof/") {
    writeText(res, 200, index);
    return true;
  }
  if (path === "/debug/pprof/profile") {
    if (cpuProfileRunning) {
      writeText(res, 500, "Could not enable CPU profiling: cpu profiling already in use\n");
      return true;
    }
    const seconds = Math.min(Math.max(Number(url.searchParams.get("seconds") ?? "30") || 30, 1), 300);
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    cpuProfileRunning = true;
    try {
      const profile = await cpuProfile(seconds, gone.signal);
      if (gone.signal.aborted) return true;
      res
        .writeHead(200, {
          "Content-Type": "application/json",
          "Content-Disposition": 'attachment; filename="kubesched.cpuprofile"',
        })
        .end(profile);
    } finally {
      cpuProfileRunning = false;
    }
    return true;
  }
  if (path === "/debug/pprof/heap") {
    if (heapSnapshotRunning) {
      writeText(res, 500, "Could not write a heap snapshot: one is being written already\n");
      return true;
    }
    heapSnapshotRunning = true;
    try {
      const snapshot = getHeapSnapshot();
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Disposition": 'attachment; filename="kubesched.heapsnapshot"',
      });
      // pipeline destroys both sides when either fails (a client that goes away mid-snapshot).
      pipeline(snapshot, res, () => {
        heapSnapshotRunning = false;
      });
    } catch (e) {
      heapSnapshotRunning = false;
      throw e;
    }
    return true;
  }
  return false;
}

import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture(format?: "text" | "json", verbosity?: number) {
  const lines: string[] = [];
  const logger = createLogger({
    write: (l) => lines.push(l),
    ...(format ? { format } : {}),
    ...(verbosity !== undefined ? { verbosity } : {}),
  });
  return { logger, lines };
}

describe("createLogger", () => {
  it("writes klog-style text lines: level letter, date, time, quoted message, key=value pairs", () => {
    const { logger, lines } = capture();
    logger.error("Error scheduling pod; retrying", { err: new Error("boom"), pod: "default/p" });
    logger.warn("watch closed", { kind: "Pod" });
    logger.info("serving", { port: 10259 });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^E\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\] "Error scheduling pod; retrying" err="boom" pod="default\/p"\n$/,
    );
    expect(lines[1]).toMatch(/^W\d{4} .*\] "watch closed" kind="Pod"\n$/);
    expect(lines[2]).toMatch(/^I\d{4} .*\] "serving" port=10259\n$/);
  });

  it("text lines carry no control characters: a pod named to drive the terminal shows escaped", () => {
    const { logger, lines } = capture();
    logger.info("Successfully bound pod to node", { pod: "default/x\u009b2J\u007f", node: "n\u001b[2J" });
    expect(lines[0]).toContain('pod="default/x\\u009b2J\\u007f" node="n\\u001b[2J"\n');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what the terminal must never receive.
    expect(lines[0]?.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("writes V(n) lines only up to the verbosity, as klog's -v", () => {
    const { logger, lines } = capture("text", 2);
    expect([logger.v(2), logger.v(3)]).toEqual([true, false]);
    logger.debug(2, "Successfully bound pod to node", { pod: "default/p", node: "n1" });
    logger.debug(3, "Attempting to schedule pod", { pod: "default/p" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"Successfully bound pod to node" pod="default/p" node="n1"');
  });

  it("child loggers add their fields to every line", () => {
    const { logger, lines } = capture();
    logger.child({ profile: "default-scheduler" }).info("hello");
    expect(lines[0]).toContain('"hello" profile="default-scheduler"');
  });

  it("json format: one object per line with level, time, msg, v and the fields", () => {
    const { logger, lines } = capture("json", 4);
    logger.debug(4, "Attempting to schedule pod", { pod: "default/p" });
    logger.error("Scheduler cache AddPod failed", { err: new Error("pod already in cache") });
    const [a, b] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a).toMatchObject({ level: "info", v: 4, msg: "Attempting to schedule pod", pod: "default/p" });
    expect(typeof a?.time).toBe("number");
    expect(b).toMatchObject({
      level: "error",
      msg: "Scheduler cache AddPod failed",
      err: { message: "pod already in cache" },
    });
  });
});

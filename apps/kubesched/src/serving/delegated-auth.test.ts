// Delegated authentication and authorization of `kubesched run`'s secure port against the
// API-server emulator: TokenReview and SubjectAccessReview answers cached and shared as
// upstream's delegating authenticator and authorizer do (issue 22: a flood of tokens made one
// review each, and under 200 concurrent requests a valid token got 401 "socket hang up").
import { waitFor } from "@kubesched/kube/testing";
import { afterEach, describe, expect, it } from "vitest";
import { bearerToken, isTransientReviewError } from "./delegated-auth";
import { getSecure, type LiveServing, startLiveServing } from "./serving.test-util";

const tokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";
const accessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
const prometheus = "system:serviceaccount:monitoring:prometheus";

let live: LiveServing | undefined;
afterEach(async () => {
  await live?.stop();
  live = undefined;
});

async function start(ttls?: { tokenMs: number; authorizedMs: number; unauthorizedMs: number }) {
  live = await startLiveServing(ttls ? { authCacheTTLs: ttls } : {});
  live.api.addToken("prom", prometheus);
  live.api.allow(prometheus, "/metrics");
  return live;
}

const reviews = (l: LiveServing, path: string) => l.api.requestsTo("POST", path).length;

// TLS handshakes and retries with upstream's backoff (0.5 s, then 0.75 s, ...) on a loaded machine.
describe("delegated authentication and authorization", { timeout: 60_000 }, () => {
  it("200 concurrent requests with one token make one TokenReview and one SubjectAccessReview, and all succeed", async () => {
    const l = await start();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => getSecure(l.serving, "/metrics", { token: "prom" })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(reviews(l, tokenReviews)).toBe(1);
    expect(reviews(l, accessReviews)).toBe(1);
  });

  it("an unknown token is reviewed once per TTL, however often it is sent", async () => {
    const l = await start();
    for (let i = 0; i < 20; i++)
      expect((await getSecure(l.serving, "/metrics", { token: "nope" })).status).toBe(401);
    expect(reviews(l, tokenReviews)).toBe(1);
  });

  it("a TokenReview answered 503 and 500 is retried: the request succeeds", async () => {
    const l = await start();
    l.api.fail({ method: "POST", path: tokenReviews, status: 503 });
    l.api.fail({ method: "POST", path: tokenReviews, status: 500 });
    expect((await getSecure(l.serving, "/metrics", { token: "prom" })).status).toBe(200);
    expect(reviews(l, tokenReviews)).toBe(3);
  });

  it("a SubjectAccessReview that keeps failing is 500 (no decision), not 403, and is not cached", async () => {
    const l = await start();
    l.api.fail({ method: "POST", path: accessReviews, status: 500, times: Number.POSITIVE_INFINITY });
    const r = await getSecure(l.serving, "/metrics", { token: "prom" });
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toMatchObject({ reason: "InternalError", code: 500 });
    // upstream DefaultAuthWebhookRetryBackoff: 5 tries.
    expect(reviews(l, accessReviews)).toBe(5);
    expect(l.logger.entries.some((e) => e.msg === "Authorization error")).toBe(true);
    l.api.clearFaults();
    expect((await getSecure(l.serving, "/metrics", { token: "prom" })).status).toBe(200);
  });

  it("a flood of unknown tokens waits at a gate; a token that succeeded before is reviewed at once", async () => {
    // Answers expire at once, so every request below needs a review.
    const l = await start({ tokenMs: 1, authorizedMs: 1, unauthorizedMs: 1 });
    expect((await getSecure(l.serving, "/metrics", { token: "prom" })).status).toBe(200);
    // The API server never answers the flood's reviews.
    l.api.fail({
      method: "POST",
      path: tokenReviews,
      hang: true,
      times: Number.POSITIVE_INFINITY,
      match: (r) => String((r.body as { spec?: { token?: string } }).spec?.token).startsWith("flood-"),
    });
    const flood = Array.from({ length: 100 }, (_, i) =>
      getSecure(l.serving, "/metrics", { token: `flood-${i}` }),
    );
    await waitFor(() => l.api.hungRequests().length >= 16, 30_000, "the flood's reviews");
    expect((await getSecure(l.serving, "/metrics", { token: "prom" })).status).toBe(200);
    // 16 reviews of unknown tokens in flight at most; the others wait for one of them to end.
    expect(l.api.hungRequests().length).toBe(16);
    l.api.clearFaults();
    l.api.releaseHung();
    expect(new Set((await Promise.all(flood)).map((a) => a.status))).toEqual(new Set([401]));
  });
});

describe("bearerToken", () => {
  it("reads the token as upstream's bearertoken authenticator", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc extra")).toBe("abc");
    expect(bearerToken("  Bearer abc  ")).toBe("abc");
    for (const none of [undefined, "", "Bearer", "Bearer ", "Bearer  abc", "Basic abc"])
      expect(bearerToken(none)).toBeNull();
  });
});

describe("isTransientReviewError", () => {
  it("is upstream's DefaultShouldRetry: a reset connection, 429 and 5xx", () => {
    const err = (statusCode: number, netCode = "") => ({ statusCode, netCode });
    for (const yes of [err(0, "ECONNRESET"), err(0, "EPIPE"), err(429), err(500), err(503), err(504)])
      expect(isTransientReviewError(yes)).toBe(true);
    for (const no of [
      err(0, "ECONNREFUSED"),
      err(0, "ABORTED"),
      err(401),
      err(403),
      err(404),
      new Error("x"),
    ])
      expect(isTransientReviewError(no)).toBe(false);
  });
});

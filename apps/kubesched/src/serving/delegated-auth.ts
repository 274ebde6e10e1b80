// Delegated authentication and authorization of the serving endpoints, as kube-scheduler's
// (k8s.io/apiserver authenticatorfactory/delegating.go and authorizerfactory/delegating.go):
// bearer tokens are checked with a TokenReview and requests authorized with a
// SubjectAccessReview (`get` on the non-resource path), both through the API server; answers are
// cached (review-cache.ts) with kube-scheduler's defaults (--authentication-token-webhook-cache-ttl
// 10s, --authorization-webhook-cache-authorized-ttl 10s, --authorization-webhook-cache-unauthorized-ttl
// 10s); transient errors (a connection reset, 429, 5xx) are retried with upstream's
// DefaultAuthWebhookRetryBackoff (500 ms × 1.5, jitter 0.2, 5 tries) and never cached.
import type { RawClient } from "@kubesched/kube";
import { ReviewCache } from "./review-cache";

/** upstream user.Info, as a TokenReview returns it. */
export interface User {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const anonymousUser: User = { username: "system:anonymous", groups: ["system:unauthenticated"] };

/** The cache TTLs, in ms (0: not cached); kube-scheduler's defaults in `defaultAuthCacheTTLs`. */
export interface AuthCacheTTLs {
  /** --authentication-token-webhook-cache-ttl: authenticated and rejected tokens alike. */
  tokenMs: number;
  /** --authorization-webhook-cache-authorized-ttl. */
  authorizedMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl. */
  unauthorizedMs: number;
}

export const defaultAuthCacheTTLs: AuthCacheTTLs = {
  tokenMs: 10_000,
  authorizedMs: 10_000,
  unauthorizedMs: 10_000,
};

/** upstream DefaultAuthWebhookRetryBackoff. */
export const authWebhookRetryBackoff = { durationMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/**
 * upstream's cache sizes: 32 stripes × 1024 tokens (the comment in cached_token_authenticator.go:
 * "a 32k entry cache"); 8192 authorization decisions.
 */
const maxTokenEntries = 32 * 1024;
const maxDecisionEntries = 8192;
/** upstream sharedLookupTimeout: one shared review, retries included, ends within 30 s. */
const sharedLookupTimeoutMs = 30_000;
/** Reviews of never-seen tokens or decisions in flight, and waiting (see review-cache.ts). */
const maxNewInFlight = 16;
const maxNewQueued = 1024;

/** What DelegatedAuth needs of the API client (a RawClient). */
export type ReviewClient = Pick<RawClient, "request">;

export interface DelegatedAuthOptions {
  client: ReviewClient;
  /** --authorization-always-allow-paths: a trailing * matches a prefix. */
  alwaysAllowPaths: readonly string[];
  ttls: AuthCacheTTLs;
}

/** An error worth retrying (upstream webhook.DefaultShouldRetry): a reset connection, 429, 5xx. */
export function isTransientReviewError(e: unknown): boolean {
  const err = e as { statusCode?: unknown; netCode?: unknown } | null;
  if (typeof err?.statusCode !== "number") return false;
  if (err.statusCode === 0) return err.netCode === "ECONNRESET" || err.netCode === "EPIPE";
  return err.statusCode === 429 || err.statusCode >= 500;
}

/** upstream webhook.WithExponentialBackoff: `steps` tries while the error is transient. */
async function withRetries<T>(attempt: (remainingMs: number) => Promise<T>): Promise<T> {
  const deadline = Date.now() + sharedLookupTimeoutMs;
  let delay = authWebhookRetryBackoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      return await attempt(deadline - Date.now());
    } catch (e) {
      const wait = delay + Math.random() * authWebhookRetryBackoff.jitter * delay;
      if (
        step >= authWebhookRetryBackoff.steps ||
        !isTransientReviewError(e) ||
        Date.now() + wait >= deadline
      )
        throw e;
      await new Promise((r) => setTimeout(r, wait));
      delay *= authWebhookRetryBackoff.factor;
    }
  }
}

/** The bearer token of an Authorization header (upstream bearertoken.Authenticator); null: none. */
export function bearerToken(header: string | undefined): string | null {
  const parts = (header ?? "").trim().split(" ");
  if (parts.length < 2 || parts[0]?.toLowerCase() !== "bearer" || !parts[1]) return null;
  return parts[1];
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
}

export class DelegatedAuth {
  private readonly tokens: ReviewCache<User | null>;
  private readonly decisions: ReviewCache<boolean>;

  constructor(private readonly opts: DelegatedAuthOptions) {
    const shared = { maxNewInFlight, maxNewQueued };
    this.tokens = new ReviewCache({
      ...shared,
      succeeded: (u) => u !== null,
      successTtlMs: opts.ttls.tokenMs,
      failureTtlMs: opts.ttls.tokenMs,
      maxEntries: maxTokenEntries,
    });
    this.decisions = new ReviewCache({
      ...shared,
      succeeded: (allowed) => allowed,
      successTtlMs: opts.ttls.authorizedMs,
      failureTtlMs: opts.ttls.unauthorizedMs,
      maxEntries: maxDecisionEntries,
    });
  }

  /**
   * The user of a request's Authorization header: anonymous without a bearer token, null for a
   * token the API server does not authenticate. Rejects when the review fails (after retries) or
   * too many are waiting (ReviewBusyError).
   */
  authenticate(authorization: string | undefined): Promise<User | null> {
    const token = bearerToken(authorization);
    if (token === null) return Promise.resolve(anonymousUser);
    return this.tokens.lookup(this.tokens.key(token), () =>
      withRetries(async (remainingMs) => {
        const review = await this.opts.client.request<{ status?: TokenReviewStatus }>(
          "POST",
          "/apis/authentication.k8s.io/v1/tokenreviews",
          {
            body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token } },
            what: "TokenReview",
            timeoutMs: remainingMs,
          },
        );
        const s = review.status;
        if (!s?.authenticated) return null;
        return {
          username: s.user?.username ?? "",
          groups: s.user?.groups ?? [],
          ...(s.user?.uid ? { uid: s.user.uid } : {}),
          ...(s.user?.extra ? { extra: s.user.extra } : {}),
        };
      }),
    );
  }

  private pathAllowed(path: string): boolean {
    return this.opts.alwaysAllowPaths.some((p) =>
      p.endsWith("*") ? path.startsWith(p.slice(0, -1)) : p === path,
    );
  }

  /** Whether `user` may `get` `path`; rejects when the review fails (after retries) or is refused. */
  authorize(user: User, path: string): Promise<boolean> {
    if (this.pathAllowed(path) || user.groups.includes("system:masters")) return Promise.resolve(true);
    const spec = {
      user: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: user.groups,
      ...(user.extra ? { extra: user.extra } : {}),
      nonResourceAttributes: { path, verb: "get" },
    };
    return this.decisions.lookup(this.decisions.key(JSON.stringify(spec)), () =>
      withRetries(async (remainingMs) => {
        const review = await this.opts.client.request<{ status?: { allowed?: boolean; denied?: boolean } }>(
          "POST",
          "/apis/authorization.k8s.io/v1/subjectaccessreviews",
          {
            body: { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec },
            what: "SubjectAccessReview",
            timeoutMs: remainingMs,
          },
        );
        return review.status?.allowed === true && review.status.denied !== true;
      }),
    );
  }
}

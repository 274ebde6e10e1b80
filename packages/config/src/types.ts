// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types.go (KubeSchedulerConfiguration,
// Extender) and component-base config/v1alpha1 (LeaderElectionConfiguration,
// ClientConnectionConfiguration). Field names are the v1 JSON names; durations, which v1 writes
// as Go duration strings ("15s"), are milliseconds here.
import type { ProfileConfig } from "./profile-types";

export const GroupName = "kubescheduler.config.k8s.io";
export const APIVersion = "kubescheduler.config.k8s.io/v1";
export const Kind = "KubeSchedulerConfiguration";
/** upstream: v1.DefaultSchedulerName */
export const DefaultSchedulerName = "default-scheduler";
/** upstream: config.DefaultPercentageOfNodesToScore (0 = adaptive). */
export const DefaultPercentageOfNodesToScore = 0;
/** upstream: config.MaxCustomPriorityScore */
export const MaxCustomPriorityScore = 10;
/** upstream: config.MaxTotalScore (math.MaxInt64 = 2^63 - 1), as the nearest float. */
export const MaxTotalScore = 2 ** 63;
/** upstream: config.MaxWeight = MaxTotalScore / MaxCustomPriorityScore */
export const MaxWeight = MaxTotalScore / MaxCustomPriorityScore;
/** upstream: pkg/scheduler/extender.go DefaultExtenderTimeout (5s), in milliseconds. */
export const DefaultExtenderTimeoutMs = 5000;

export interface LeaderElectionConfiguration {
  leaderElect: boolean;
  /** Milliseconds ("15s" in v1). */
  leaseDuration: number;
  /** Milliseconds ("10s" in v1). */
  renewDeadline: number;
  /** Milliseconds ("2s" in v1). */
  retryPeriod: number;
  resourceLock: string;
  resourceName: string;
  resourceNamespace: string;
}

export interface ClientConnectionConfiguration {
  kubeconfig: string;
  acceptContentTypes: string;
  contentType: string;
  qps: number;
  burst: number;
}

export interface ExtenderTLSConfig {
  insecure?: boolean;
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  /** base64, as in v1 JSON ([]byte). */
  certData?: string;
  keyData?: string;
  caData?: string;
}

export interface ExtenderManagedResource {
  name: string;
  ignoredByScheduler: boolean;
}

export interface Extender {
  urlPrefix: string;
  filterVerb: string;
  preemptVerb: string;
  prioritizeVerb: string;
  weight: number;
  bindVerb: string;
  enableHTTPS: boolean;
  tlsConfig?: ExtenderTLSConfig;
  /** Milliseconds; defaults to 5s (upstream applies that default when building the extender). */
  httpTimeout: number;
  nodeCacheCapable: boolean;
  managedResources: ExtenderManagedResource[];
  ignorable: boolean;
}

/** A fully defaulted KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). */
export interface KubeSchedulerConfiguration {
  apiVersion: typeof APIVersion;
  kind: typeof Kind;
  parallelism: number;
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  leaderElection: LeaderElectionConfiguration;
  clientConnection: ClientConnectionConfiguration;
  enableProfiling: boolean;
  enableContentionProfiling: boolean;
  delayCacheUntilActive: boolean;
  /** pluginConfig args are decoded and defaulted by each plugin's args spec. */
  profiles: ProfileConfig[];
  extenders: Extender[];
}

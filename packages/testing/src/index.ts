// @kubesched/testing — builders (upstream pkg/scheduler/testing/wrappers.go), a plugin harness
// over the real runtime, and fakes for the cluster-facing interfaces.

export * from "./builders";
export {
  checkFilterColumns,
  checkPreScoreColumns,
  checkScoreColumns,
  hideColumnarMethods,
  withoutColumnar,
} from "./columnar";
export { type FakeClock, fakeClock } from "./fake-clock";
export {
  ArrayClusterLister,
  ArrayLister,
  type CustomResourceObjects,
  FakeListers,
  type ListerObjects,
} from "./fake-listers";
export { FakeNominator } from "./fake-nominator";
export {
  createPluginHarness,
  type EngineCall,
  type EngineChecker,
  flushHarnessEngineChecks,
  HarnessBinderName,
  type HarnessFilterOutput,
  type HarnessObjects,
  type HarnessOptions,
  type HarnessPreFilterOutput,
  HarnessQueueSortName,
  type HarnessScoreOptions,
  type HarnessScoreOutput,
  type PluginHarness,
  setHarnessEngineChecker,
} from "./harness";
export {
  type ClaimCall,
  type ClientCall,
  type RecordedEvent,
  RecordingClusterClient,
  recordingEventRecorder,
} from "./recording-client";
export { type LogEntry, type RecordingLogger, recordingLogger } from "./recording-logger";
export { type SignPodSummary, signPodSummary } from "./sign-pod";
export { type StatusSummary, statusSummary } from "./status-summary";

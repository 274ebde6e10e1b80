// @kubesched/kube/testing: the API-server emulator behind the live mode's tests (emulator/).

export type { RuntimeConfig } from "./emulator/discovery";
export { defaultServerVersion, FakeApiServer, type FakeApiServerOptions } from "./emulator/fake-api-server";
export { type RequestInfo, requestInfo } from "./emulator/request-info";
export type { Fault, RecordedRequest } from "./emulator/requests";
export { waitFor } from "./emulator/wait-for";

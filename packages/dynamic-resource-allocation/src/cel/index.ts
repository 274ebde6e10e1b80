// The DRA CEL environment (upstream k8s.io/dynamic-resource-allocation/cel).
export { Cache } from "./cache";
export {
  type CELError,
  type CELErrorType,
  type CompilationResult,
  Compiler,
  type DerivedAttributeCompilationResult,
  type DerivedAttributeResult,
  type Device,
  type DeviceMatchResult,
  type EnvType,
  type Features,
  getCompiler,
  type Options,
} from "./compile";

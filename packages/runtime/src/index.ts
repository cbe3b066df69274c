export { createRuntime, type Runtime, type RuntimeConfig, type RuntimeOptions } from "./runtime.ts";

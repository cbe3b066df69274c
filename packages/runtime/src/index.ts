export { createRuntime, type Runtime, type RuntimeConfig, type RuntimeOptions } from "./runtime.ts";
export { createPhotoUploader } from "./photo-uploader.ts";

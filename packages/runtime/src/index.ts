export {
  createRuntime,
  type ConversationServices,
  type Runtime,
  type RuntimeConfig,
  type RuntimeOptions,
} from "./runtime.ts";
export { createPhotoUploader } from "./photo-uploader.ts";

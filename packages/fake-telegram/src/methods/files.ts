// getFile: a file's File object, with the file_path it downloads from (documents.ts).
import type { MethodHandler } from "./context.ts";

export const getFile: MethodHandler = (ctx, args) =>
  ctx.state.documents.getFile(args.required("file_id"));

// A small multipart/form-data reader: text fields become arguments, files become a note of their
// name and size (the fake stores no media). Enough for the bodies grammY and curl send.
export interface UploadedFile {
  filename: string;
  size: number;
}

export function parseMultipart(
  body: Buffer,
  contentType: string,
): Record<string, string | UploadedFile> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  const fields: Record<string, string | UploadedFile> = {};
  if (!marker) return fields;
  const delimiter = Buffer.from(`--${marker}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    const part = body.subarray(partStart, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      // Drop the CRLF that precedes the next delimiter.
      const content = part.subarray(headerEnd + 4, Math.max(headerEnd + 4, part.length - 2));
      const name = parameter(headers, "name");
      const filename = parameter(headers, "filename");
      if (name !== undefined) {
        fields[name] =
          filename !== undefined ? { filename, size: content.length } : content.toString("utf8");
      }
    }
    start = next;
  }
  return fields;
}

/** A Content-Disposition parameter, quoted or a bare token (grammY sends `filename=cup.jpg`). */
function parameter(headers: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|[;\\s])${key}=(?:"([^"]*)"|([^;\\s]+))`, "i").exec(headers);
  return match ? (match[1] ?? match[2]) : undefined;
}

// The errors an OpenClaw host tells apart. It treats an error named `ToolInputError` (with
// an HTTP-like `status`) as the model's mistake and shows the message to it; anything else
// is a tool failure. The built-in diffs tool throws the same two kinds.

/** A call the model can fix: previewd's contract message, unchanged. */
export class ToolInputError extends Error {
  constructor(message) {
    super(message);
    this.name = "ToolInputError";
    this.status = 400;
  }
}

/** previewd could not do the work (no browser, store full, unreachable, refused token). */
export class PreviewdError extends Error {
  constructor(message, { code, status } = {}) {
    super(message);
    this.name = "PreviewdError";
    this.code = code;
    this.status = status;
  }
}

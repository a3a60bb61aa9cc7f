// The `diffs` tool's parameters: the same fields, types, enums and bounds as OpenClaw's
// built-in tool, so an agent's calls stay valid when previewd serves them. previewd checks
// every value again (it is the contract's owner); this schema is what the model sees.

const MAX_PATCH_BYTES = 2 * 1024 * 1024;
const MAX_PATH_BYTES = 2048;
const MAX_LANG_BYTES = 128;
const MAX_TITLE_BYTES = 1024;

export const MODES = ["view", "file", "image", "both"];
export const THEMES = ["light", "dark"];
export const LAYOUTS = ["unified", "split"];
export const FILE_FORMATS = ["png", "pdf"];
export const FILE_QUALITIES = ["standard", "hq", "print"];

const oneOf = (values, description) => ({ type: "string", enum: [...values], description });
const scale = (description) => ({ type: "number", minimum: 1, maximum: 4, description });
const width = (description) => ({ type: "number", minimum: 640, maximum: 2400, description });

/** JSON Schema of the tool's input (no other field is accepted). */
export const DIFFS_PARAMETERS = {
  type: "object",
  additionalProperties: false,
  properties: {
    before: { type: "string", description: "The text before the change." },
    after: { type: "string", description: "The text after the change." },
    patch: {
      type: "string",
      maxLength: MAX_PATCH_BYTES,
      description: "A unified diff (plain or git). Use it instead of before/after, never with them.",
    },
    path: {
      type: "string",
      maxLength: MAX_PATH_BYTES,
      description: "File name shown for before/after input; also picks the syntax highlighting.",
    },
    lang: {
      type: "string",
      maxLength: MAX_LANG_BYTES,
      description: "Language for highlighting before/after input when the path does not tell it.",
    },
    title: {
      type: "string",
      maxLength: MAX_TITLE_BYTES,
      description: "Heading of the rendered diff.",
    },
    mode: oneOf(
      MODES,
      "What to return: view (viewer URL), file (PNG/PDF path), or both. image is an old name for file.",
    ),
    theme: oneOf(THEMES, "Colour theme of the viewer and the file."),
    layout: oneOf(LAYOUTS, "One column (unified) or before and after side by side (split)."),
    fileQuality: oneOf(FILE_QUALITIES, "Render preset for the PNG/PDF: standard, hq or print."),
    fileFormat: oneOf(FILE_FORMATS, "Format of the rendered file: png or pdf."),
    fileScale: scale("Device pixel ratio of the rendered file (1-4), overriding the preset."),
    fileMaxWidth: width("Width of the rendered file in CSS pixels (640-2400), overriding the preset."),
    imageQuality: oneOf(FILE_QUALITIES, "Old name for fileQuality."),
    imageFormat: oneOf(FILE_FORMATS, "Old name for fileFormat."),
    imageScale: scale("Old name for fileScale."),
    imageMaxWidth: width("Old name for fileMaxWidth."),
    expandUnchanged: {
      type: "boolean",
      description: "Show unchanged lines instead of folding them (where the full text is known).",
    },
    ttlSeconds: {
      type: "number",
      minimum: 1,
      maximum: 21600,
      description: "How long the viewer and file stay reachable, in seconds (default 1800, at most 21600).",
    },
    baseUrl: {
      type: "string",
      description: "Origin (and optional path) for the returned links, e.g. https://gateway.example.com; no query or hash.",
    },
  },
};

// The `diffs` agent tool, answered by previewd: the call goes to `POST /api/v1/diffs` as is
// (previewd owns the contract: validation, messages, defaults, rendering), the `details`
// come back unchanged except that a rendered file is copied to the gateway and `filePath`
// names the copy.

import { DIFFS_PARAMETERS } from "./schema.js";
import { createDiff, fetchFile } from "./client.js";
import { saveFile, sweepExpired } from "./files.js";
import { PreviewdError } from "./errors.js";

/** The fields of `details` that describe the rendered file (dropped when it cannot be had). */
const FILE_FIELDS = [
  "filePath", "path", "imagePath", "fileUrl", "fileBytes", "imageBytes", "fileFormat", "format",
  "fileQuality", "imageQuality", "fileScale", "imageScale", "fileMaxWidth", "imageMaxWidth",
];

/** The caller context previewd echoes back in `details.context`. */
const CONTEXT_KEYS = ["agentId", "sessionId", "messageChannel", "agentAccountId"];

/**
 * Builds the tool for one tool context (`toolContext` may be empty).
 * `settings` from `clientSettings`, `filesRoot` the folder for local copies (or a promise of it),
 * `viewerBaseUrl` the configured link base.
 */
export function createDiffsTool({ settings, filesRoot, viewerBaseUrl, logger, toolContext = {} }) {
  return {
    name: "diffs",
    label: "Diffs",
    description:
      "Turn before/after text or a unified patch into a read-only diff: a viewer URL to show in canvas, a rendered PNG or PDF file to send in a message, or both.",
    parameters: DIFFS_PARAMETERS,
    async execute(_toolCallId, params) {
      const input = { ...(params ?? {}) };
      if (input.baseUrl === undefined && viewerBaseUrl) input.baseUrl = viewerBaseUrl;
      const context = contextOf(toolContext);
      if (context) input.context = context;
      const details = await createDiff(settings, input);
      if (details.changed === false) {
        return { content: [{ type: "text", text: String(details.message ?? "No changes.") }], details };
      }
      if (typeof details.fileUrl === "string") {
        try {
          await localCopy(settings, filesRoot, details);
        } catch (error) {
          if (details.mode !== "both") throw error;
          logger?.warn?.(`diffs: rendered file not copied: ${error.message}`);
          for (const field of FILE_FIELDS) delete details[field];
          details.fileError = error.message;
          details.imageError = error.message;
        }
      }
      return { content: [{ type: "text", text: summary(details) }], details };
    },
  };
}

/** Fetches the file behind `details.fileUrl` into the gateway and points the paths at it. */
async function localCopy(settings, filesRoot, details) {
  const root = await filesRoot;
  const bytes = await fetchFile(settings, details.fileUrl);
  if (Number.isFinite(details.fileBytes) && bytes.length !== details.fileBytes) {
    throw new PreviewdError(
      `the rendered diff file arrived with ${bytes.length} bytes, previewd announced ${details.fileBytes}`,
      { code: "file_fetch_failed" },
    );
  }
  const local = await saveFile(root, {
    artifactId: details.artifactId,
    format: details.fileFormat,
    expiresAt: details.expiresAt,
    bytes,
  });
  details.filePath = local;
  details.path = local;
  details.imagePath = local;
  // Copies of expired artifacts go once a later call has made its own.
  await sweepExpired(root).catch(() => 0);
}

function contextOf(toolContext) {
  const context = {};
  for (const key of CONTEXT_KEYS) {
    if (typeof toolContext[key] === "string" && toolContext[key]) context[key] = toolContext[key];
  }
  return Object.keys(context).length ? context : undefined;
}

/** The text the model reads next to `details`. */
function summary(details) {
  const lines = [];
  if (details.viewerUrl) lines.push(`Diff viewer: ${details.viewerUrl}`);
  if (details.filePath) {
    lines.push(`Rendered ${String(details.fileFormat).toUpperCase()} file: ${details.filePath}`);
    lines.push("To deliver it, call the `message` tool with this path as `path` or `filePath`.");
  }
  if (details.fileError) lines.push(`No rendered file: ${details.fileError}`);
  return lines.join("\n");
}

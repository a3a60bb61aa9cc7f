// The short usage note put in front of the agent's system prompt (the `before_prompt_build`
// hook), in previewd's words; the skill in ../skills/diffs has the longer version.

export const DIFFS_GUIDANCE = [
  "To show a change, call the `diffs` tool rather than describing the edit in prose.",
  "Give it `before` and `after` text, or one unified `patch` — not both.",
  "`mode=view` answers with `details.viewerUrl` (open it with canvas), `mode=file` with `details.filePath` (a PNG or PDF), `mode=both` with the two.",
  "To send the file to someone, pass `details.filePath` to the `message` tool as `path` or `filePath`.",
  "Set `path` when you know the file name; leave theme, layout and file options to the configured defaults unless asked.",
].join("\n");

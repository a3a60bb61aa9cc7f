// The gateway's copies of rendered diff files. previewd's `filePath` names a file on
// previewd's machine; the agent's `message` tool runs on the gateway, so the plugin keeps
// a copy in the gateway's own temp folder and answers with that path instead.

import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";

/** Subfolder of the gateway temp folder that holds the copies. */
export const FILES_SUBDIR = "openclaw-diffs-previewd";

const ARTIFACT_ID = /^[0-9a-f]{20}$/;
const EXPIRY_FILE = "expires-at";

/**
 * The gateway's temp folder: OpenClaw's own (`resolvePreferredOpenClawTmpDir`, where the
 * built-in diffs tool keeps its files) when the host's SDK can be loaded, else
 * `$TMPDIR/openclaw`.
 */
export async function gatewayTmpDir() {
  try {
    const sdk = await import("openclaw/plugin-sdk/temp-path");
    if (typeof sdk.resolvePreferredOpenClawTmpDir === "function") {
      return sdk.resolvePreferredOpenClawTmpDir();
    }
  } catch {
    // Not inside an OpenClaw install (tests, or a host without that SDK subpath).
  }
  return path.join(os.tmpdir(), "openclaw");
}

/** Where copies live: `fileDir` from the plugin config, or the gateway temp folder's subfolder. */
export async function filesRoot(pluginConfig = {}) {
  if (typeof pluginConfig.fileDir === "string" && pluginConfig.fileDir.trim()) {
    return path.resolve(pluginConfig.fileDir.trim());
  }
  return path.join(await gatewayTmpDir(), FILES_SUBDIR);
}

/**
 * Writes `bytes` as `<root>/<artifactId>/diff.<format>` (temp file, then rename, so a
 * reader never sees half a file) and returns the absolute path. The folder records the
 * artifact's expiry so that a later call can sweep it.
 */
export async function saveFile(root, { artifactId, format, expiresAt, bytes }) {
  if (!ARTIFACT_ID.test(String(artifactId))) {
    throw new Error("previewd answered with a malformed artifactId");
  }
  if (format !== "png" && format !== "pdf") {
    throw new Error("previewd answered with an unknown fileFormat");
  }
  const dir = path.join(root, artifactId);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, `diff.${format}`);
  const temp = path.join(dir, `.diff.${crypto.randomBytes(6).toString("hex")}.tmp`);
  await fs.writeFile(temp, bytes, { mode: 0o600 });
  await fs.rename(temp, target);
  const expiry = Date.parse(expiresAt);
  if (Number.isFinite(expiry)) {
    await fs.writeFile(path.join(dir, EXPIRY_FILE), String(expiry), { mode: 0o600 });
  }
  return target;
}

/** Deletes copies whose artifact has expired at `now` (ms); returns how many. */
export async function sweepExpired(root, now = Date.now()) {
  let entries;
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !ARTIFACT_ID.test(entry.name)) continue;
    const dir = path.join(root, entry.name);
    const expiry = Number(await fs.readFile(path.join(dir, EXPIRY_FILE), "utf8").catch(() => NaN));
    if (Number.isFinite(expiry) && expiry <= now) {
      await fs.rm(dir, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

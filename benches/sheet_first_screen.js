// First screen of a large table through the service, in headless Chromium: for each run,
// `POST /api/v1/previews` (from node), then the shell URL it answers opened in a page; the
// clock stops when the framed grid has painted its first cells (two animation frames after
// they are in the DOM). Then, once the table is read whole, later blocks: the grid is
// scrolled to rows it has not shown yet and timed until the row's first cell is painted.
//
//   node sheet_first_screen.js BASE ROOT REL [RUNS=5]
//
// The table's first column must hold the row number (the files `sheet_first_screen.sh`
// writes do). Needs playwright-core (NODE_PATH pointing at its node_modules) and
// /usr/bin/chromium. Prints one JSON line per measurement.
"use strict";
const { chromium } = require("playwright-core");

const [base, root, rel, runsArg] = process.argv.slice(2);
const runs = parseInt(runsArg || "5", 10);
if (!base || !root || !rel) {
  console.error("usage: node sheet_first_screen.js BASE ROOT REL [RUNS]");
  process.exit(2);
}

async function post() {
  const res = await fetch(base + "/api/v1/previews", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ workspaceRoot: root, relativePath: rel }),
  });
  if (res.status !== 201) throw new Error("POST " + res.status + " " + (await res.text()));
  return res.json();
}

async function gridFrame(page) {
  for (;;) {
    const f = page.frames().find((x) => x.url().endsWith("/grid/"));
    if (f) return f;
    await page.waitForTimeout(1);
  }
}

async function untilComplete(url) {
  for (;;) {
    const meta = await (await fetch(url + "grid/meta.json")).json();
    if (meta.complete && meta.sha256) return meta;
    await new Promise((r) => setTimeout(r, 100));
  }
}

(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const snap = await post();
    const tPost = performance.now() - t0;
    await page.goto(snap.url, { waitUntil: "commit" });
    const frame = await gridFrame(page);
    await frame.waitForFunction(
      () => document.body.dataset.ready === "1" && Array.from(document.querySelectorAll(".cell")).some((c) => c.textContent === "1"),
      null,
      { polling: "raf", timeout: 60000 },
    );
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tPainted = performance.now() - t0;
    const early = await frame.evaluate(() => document.getElementById("notes").textContent);
    console.log(JSON.stringify({ run: i, file: rel, postMs: +tPost.toFixed(1), paintedMs: +tPainted.toFixed(1), sha256InPost: snap.sha256 !== null, note: early }));
    const meta = await untilComplete(snap.url);
    await frame.waitForFunction(() => document.body.dataset.complete === "1", null, { timeout: 60000 });
    // Later blocks, each never shown before: scroll there and wait for its first cell.
    const rows = meta.rowsKnown;
    const later = [];
    for (const f of [0.13, 0.37, 0.5, 0.71, 0.9, 0.97]) {
      const r = Math.floor(rows * f) + i * 401;
      const ms = await frame.evaluate(async (r) => {
        const t = performance.now();
        window.previewdSheet.scrollToRow(r);
        await new Promise((done) => {
          (function check() {
            if (Array.from(document.querySelectorAll(".cell")).some((c) => c.textContent === String(r))) {
              requestAnimationFrame(() => requestAnimationFrame(done));
            } else requestAnimationFrame(check);
          })();
        });
        return performance.now() - t;
      }, r);
      later.push(+ms.toFixed(1));
    }
    console.log(JSON.stringify({ run: i, file: rel, rowsKnown: rows, laterBlockMs: later }));
  }
  await browser.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});

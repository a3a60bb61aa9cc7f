// First screen of a large table through the service, in headless Chromium: for each run,
// `POST /api/v1/previews` (from node), then the shell URL it answers opened in a page.
// Then, once the table is read whole, later blocks: the grid is scrolled to rows it has
// not shown yet.
//
//   node sheet_first_screen.js BASE ROOT REL [RUNS=5]
//
// Two clocks, printed side by side:
//   - the page's own: the viewer is opened with `window.previewdSheetTiming` set (an init
//     script), so it tags the first cell drawn from each new block with an `elementtiming`
//     name; the Element Timing entry's `renderTime` is when Chromium painted that cell. A
//     frame's times are moved onto node's clock through `performance.timeOrigin`, so the
//     timeline of one open (shell, frame, scripts, meta.json, blocks, paint) starts at the
//     POST;
//   - the harness's: it polls the frame until the cell is in the DOM, then waits two
//     animation frames (what the earlier figures measured; its cross-process polling is
//     part of that figure).
// TRACE_DIR set: a Chrome trace of the first two opens (cold, warm) is written there.
//
// The table's first column must hold the row number (the files `sheet_first_screen.sh`
// writes do). Needs playwright-core (NODE_PATH pointing at its node_modules) and
// /usr/bin/chromium. Prints one JSON line per measurement.
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");

const [base, root, rel, runsArg] = process.argv.slice(2);
const runs = parseInt(runsArg || "5", 10);
const traceDir = process.env.TRACE_DIR || "";
if (!base || !root || !rel) {
  console.error("usage: node sheet_first_screen.js BASE ROOT REL [RUNS]");
  process.exit(2);
}

// Epoch milliseconds, the clock the page's entries are moved onto.
const now = () => performance.timeOrigin + performance.now();
const r1 = (x) => Math.round(x * 10) / 10;

async function post() {
  const res = await fetch(base + "/api/v1/previews", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ workspaceRoot: root, relativePath: rel }),
  });
  if (res.status !== 201) throw new Error("POST " + res.status + " " + (await res.text()));
  return res.json();
}

// The frame that holds the grid: the shell itself (the viewer is drawn in its Sheet panel),
// or a framed `grid/` page (builds before the grid moved into the shell).
async function gridFrame(page) {
  for (;;) {
    const f = page.frames().find((x) => x.url().endsWith("/grid/"));
    if (f) return f;
    const main = page.mainFrame();
    if (await main.evaluate(() => !!document.getElementById("sheet")).catch(() => false)) return main;
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

// The element timing entry named `name` in the frame, once painted (epoch ms).
function paintedAt(frame, name) {
  return frame.evaluate(
    (name) =>
      new Promise((done) => {
        const seen = (list) => {
          const e = list.find((x) => x.identifier === name);
          if (e) {
            done(performance.timeOrigin + (e.renderTime || e.loadTime));
            return true;
          }
          return false;
        };
        const ob = new PerformanceObserver((l) => {
          if (seen(l.getEntries())) ob.disconnect();
        });
        ob.observe({ type: "element", buffered: true });
        setTimeout(() => done(null), 10000);
      }),
    name,
  );
}

// Resource, navigation and user-timing entries of a frame, on the epoch clock.
function entries(frame) {
  return frame.evaluate(() => {
    const o = performance.timeOrigin;
    const out = [];
    const nav = performance.getEntriesByType("navigation")[0];
    if (nav) {
      out.push(["nav start", o + nav.startTime]);
      out.push(["nav response end", o + nav.responseEnd]);
      out.push(["DOMContentLoaded", o + nav.domContentLoadedEventEnd]);
    }
    for (const p of performance.getEntriesByType("paint")) out.push([p.name, o + p.startTime]);
    for (const r of performance.getEntriesByType("resource")) {
      const n = r.name.replace(/^.*\/p\/[^/]+\/[^/]+\//, "").replace(/^.*\/static\//, "static/");
      out.push(["fetch " + n, o + r.startTime, o + r.responseEnd]);
    }
    for (const m of performance.getEntriesByType("mark")) out.push([m.name, o + m.startTime]);
    return out;
  });
}

function timeline(t0, list) {
  return list
    .sort((a, b) => a[1] - b[1])
    .map((e) => e[0] + " " + r1(e[1] - t0) + (e.length > 2 ? "→" + r1(e[2] - t0) : ""));
}

(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.previewdSheetTiming = true;
  });
  const page = await context.newPage();
  for (let i = 0; i < runs; i++) {
    const tracing = traceDir && i < 2;
    if (tracing) {
      await browser.startTracing(page, {
        path: path.join(traceDir, `trace-${path.basename(rel)}-${i === 0 ? "cold" : "warm"}.json`),
        screenshots: false,
      });
    }
    const t0 = now();
    const snap = await post();
    const tPost = now() - t0;
    await page.goto(snap.url, { waitUntil: "commit" });
    const frame = await gridFrame(page);
    await frame.waitForFunction(
      () => document.body.dataset.ready === "1" && Array.from(document.querySelectorAll(".cell")).some((c) => c.textContent === "1"),
      null,
      { polling: "raf", timeout: 60000 },
    );
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tHarness = now() - t0;
    const painted = await paintedAt(frame, "block-0");
    if (tracing) await browser.stopTracing();
    const early = await frame.evaluate(() => document.getElementById("notes").textContent);
    const shellEntries = (await entries(page.mainFrame())).map((e) => ["shell " + e[0], ...e.slice(1)]);
    const line = timeline(t0, frame === page.mainFrame() ? shellEntries : shellEntries.concat(await entries(frame)));
    console.log(JSON.stringify({
      run: i, file: rel, postMs: r1(tPost),
      paintedMs: painted === null ? null : r1(painted - t0),
      harnessMs: r1(tHarness),
      sha256InPost: snap.sha256 !== null, note: early,
    }));
    console.log(JSON.stringify({ run: i, timeline: line }));
    const meta = await untilComplete(snap.url);
    await frame.waitForFunction(() => document.body.dataset.complete === "1", null, { timeout: 60000 });
    // Later blocks, each never shown before: scroll there; the page's clock stops when
    // the first cell of the block is painted, the harness's two frames after it is in
    // the DOM.
    const rows = meta.rowsKnown;
    const later = [];
    const laterHarness = [];
    for (const f of [0.13, 0.37, 0.5, 0.71, 0.9, 0.97]) {
      const r = Math.floor(rows * f) + i * 401;
      const block = Math.floor(r / meta.blockRows);
      const [t, harness] = await frame.evaluate(async (r) => {
        const t = performance.timeOrigin + performance.now();
        window.previewdSheet.scrollToRow(r);
        await new Promise((done) => {
          (function check() {
            if (Array.from(document.querySelectorAll(".cell")).some((c) => c.textContent === String(r))) {
              requestAnimationFrame(() => requestAnimationFrame(done));
            } else requestAnimationFrame(check);
          })();
        });
        return [t, performance.timeOrigin + performance.now() - t];
      }, r);
      const p = await paintedAt(frame, "block-" + block);
      later.push(p === null ? null : r1(p - t));
      laterHarness.push(r1(harness));
    }
    console.log(JSON.stringify({ run: i, file: rel, rowsKnown: rows, laterBlockPaintedMs: later, laterBlockHarnessMs: laterHarness }));
  }
  await browser.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});

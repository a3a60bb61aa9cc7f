// Screenshots every slide of a standalone previewd deck page (`previewd preview deck.pptx
// --format html`) in headless Chromium, through the real viewer script: each slide is
// opened with its #slide-N deep link, the chrome (toolbar, notes) is hidden with injected
// CSS, the thumbnail rail is moved off-screen, and the stage alone is captured at a fixed
// width. The rail stays rendered (not `display: none`) so the page is the viewer as people
// see it: a thumbnail is a clone of its slide, and hiding it once hid the SVG gradients it
// shared ids with.
//
//   node shoot.js PAGE.html OUT_DIR [WIDTH=960] [MAX_SLIDES]  ->  OUT_DIR/slide-001.png ...
//
// Needs playwright-core (NODE_PATH pointing at its node_modules) and /usr/bin/chromium.
"use strict";
const path = require("path");
const fs = require("fs");
const { chromium } = require("playwright-core");

const [page_, outDir, widthArg, maxArg] = process.argv.slice(2);
const width = parseInt(widthArg || "960", 10);
const maxSlides = maxArg ? parseInt(maxArg, 10) : Infinity;
if (!page_ || !outDir) {
  console.error("usage: node shoot.js PAGE.html OUT_DIR [WIDTH]");
  process.exit(2);
}
const url = "file://" + path.resolve(page_);
fs.mkdirSync(outDir, { recursive: true });

const CHROME_CSS = `
  .pptx-js .pptx-rail { position: fixed !important; left: -20000px !important; top: 0 !important; width: 200px !important; height: 600px !important; }
  .pptx-bar, .pptx-notes, .pptx-hidden-badge, .pptx-warnings, body > header { display: none !important; }
  html, body { margin: 0 !important; background: #fff !important; }
  .pptx.pptx-js { display: block !important; height: auto !important; min-height: 0 !important; }
  .pptx-js .pptx-slides { container-type: normal !important; overflow: visible !important; }
  .pptx-js .pptx-slide.is-current { position: static !important; padding: 0 !important; display: block !important; }
  .pptx-js .pptx-slide.is-current > .pptx-stage { width: ${width}px !important; box-shadow: none !important; }
  *, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }
`;

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none", "--hide-scrollbars"],
  });
  try {
    const context = await browser.newContext({
      viewport: { width: width + 40, height: width + 40 },
      deviceScaleFactor: 1,
      colorScheme: "light",
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    const count = await page.evaluate(() => {
      const root = document.querySelector("[data-pptx]");
      return root ? parseInt(root.getAttribute("data-count") || "0", 10) : 0;
    });
    if (count === 0) {
      console.log(JSON.stringify({ slides: 0 }));
      return;
    }
    await page.addStyleTag({ content: CHROME_CSS });
    const last = Math.min(count, maxSlides);
    for (let n = 1; n <= last; n++) {
      await page.evaluate((n) => { window.location.hash = "#slide-" + n; }, n);
      await page.waitForFunction(
        (n) => {
          const s = document.getElementById("slide-" + n);
          return !!s && s.classList.contains("is-current") && !!s.querySelector(":scope > .pptx-stage");
        },
        n,
        { timeout: 10000 }
      );
      // Pictures are data: URLs; wait until they are decoded (at most 2 s each: Chromium
      // never settles decode() of an SVG smaller than a pixel, such as a blank metafile),
      // and for web fonts.
      await page.evaluate(async (n) => {
        const s = document.getElementById("slide-" + n);
        await Promise.all(Array.from(s.querySelectorAll("img")).map((im) => (im.decode ? Promise.race([im.decode().catch(() => {}), new Promise((r) => setTimeout(r, 2000))]) : null)));
        await document.fonts.ready;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }, n);
      const stage = page.locator("#slide-" + n + " > .pptx-stage");
      const file = path.join(outDir, "slide-" + String(n).padStart(3, "0") + ".png");
      await stage.screenshot({ path: file, animations: "disabled" });
    }
    console.log(JSON.stringify({ slides: last, total: count }));
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});

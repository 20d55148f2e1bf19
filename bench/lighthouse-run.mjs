// Runs Lighthouse in plain Node (not through tsx: esbuild's `__name` helper would end up in the functions
// Lighthouse sends into the page, where it does not exist). Started by bench/lighthouse.ts; prints one
// JSON line per run. Arguments: base URL, comma-separated routes, runs, session token, Chromium path.
import { writeFileSync } from 'node:fs';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const [base, routeList, runsArg, token, executablePath] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});
try {
  for (const route of routeList.split(',')) {
    const signedIn = route !== '/login';
    for (let run = 0; run < Number(runsArg); run++) {
      const page = await browser.newPage();
      // Same origin, JSON: the token lands in the console's localStorage and no console file is cached.
      await page.goto(`${base}/healthz`);
      await page.evaluate(
        (value, expiry, keep) => {
          localStorage.clear();
          if (!keep) return;
          localStorage.setItem('token', value);
          localStorage.setItem('tokenExpiry', expiry);
        },
        token,
        String(Date.now() + 3_600_000),
        signedIn,
      );
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      // Storage reset off (it would drop the token); the HTTP cache was emptied just above.
      const result = await lighthouse(
        `${base}${route}`,
        { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
        undefined,
        page,
      );
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`${route}: Lighthouse returned nothing`);
      if (lhr.runtimeError) throw new Error(`${route}: ${lhr.runtimeError.message}`);
      // LH_REPORT_DIR keeps each run's whole report (LCP element, long tasks, request chains) for reading.
      const reportDir = process.env.LH_REPORT_DIR;
      if (reportDir) {
        const name = `${route.replaceAll('/', '_') || '_root'}-${run + 1}.json`;
        writeFileSync(`${reportDir}/${name}`, JSON.stringify(lhr));
      }
      const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
        (item) => item.resourceType === 'Script',
      );
      console.log(
        JSON.stringify({
          route,
          finalPath: new URL(lhr.finalDisplayedUrl).pathname,
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          fcp: lhr.audits['first-contentful-paint']?.numericValue,
          lcp: lhr.audits['largest-contentful-paint']?.numericValue,
          tbt: lhr.audits['total-blocking-time']?.numericValue,
          jsTransfer: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
          jsResource: scripts.reduce((sum, item) => sum + (item.resourceSize ?? 0), 0),
          jsFiles: scripts.length,
        }),
      );
      await page.close();
    }
  }
} finally {
  await browser.close();
}

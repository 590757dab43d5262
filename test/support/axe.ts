// axe-core in a page of the real browser: its source evaluated through the DevTools protocol (as
// @axe-core/playwright does), so the pages' Content-Security-Policy, which allows no inline script, stays on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what the pages are held to. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeCheck {
  /** Selectors of parts left out (another project's markup, e.g. Swagger UI's). */
  exclude?: string[];
  tags?: string[];
}

/** Runs axe-core over the page as it is now and returns what it found. */
export async function runAxe(page: Page, check: AxeCheck = {}): Promise<AxeResults> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = {
    runOnly: { type: 'tag', values: check.tags ?? WCAG_AA_TAGS },
    resultTypes: ['violations'],
  };
  const context = check.exclude?.length ? JSON.stringify({ exclude: check.exclude }) : 'document';
  // A string, run in the page: the test's TypeScript knows no DOM. Playwright awaits the promise it ends in.
  return page.evaluate<AxeResults>(`window.axe.run(${context}, ${JSON.stringify(options)})`);
}

/** The violations, one line per element: rule, impact, where, what axe says is wrong. */
export function describeViolations(violations: readonly Result[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map(
      (node) =>
        `${v.id} (${v.impact ?? 'no impact'}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`,
    ),
  );
}

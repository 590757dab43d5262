// The page that explains what "verified" means here: the rule, the figures by source, and what the rule never does.
import type { Business, VerificationSummary } from '../reviews/schemas.js';
import { formatCount, html } from './html.js';
import { page, type SiteContext } from './layout.js';
import { verificationStatement } from '../reviews/verification.js';

/** How a source is named on the page. */
const SOURCE_NAMES: Record<string, string> = {
  own: 'Collected by the business',
  google: 'Google',
  trustpilot: 'Trustpilot',
  facebook: 'Facebook',
  podium: 'Podium',
  birdeye: 'Birdeye',
};

export const VERIFICATION_PATH = '/verification';

export function verificationPage(site: SiteContext, business: Business | null, summary: VerificationSummary): string {
  const sources = Object.entries(summary.bySource);
  const name = business?.name ?? 'the business';
  return page(site, {
    title: `How reviews of ${name} are verified`,
    description: verificationStatement(summary),
    canonical: `${site.links.baseUrl}${VERIFICATION_PATH}`,
    business,
    main: html`<h1>How reviews are verified</h1>
<p>${verificationStatement(summary)}</p>
<h2>The rule</h2>
<ul>
<li>A review is verified when <strong>exactly one</strong> completed job of ${name} fits it: a job whose reference the review carries (an invitation sent after the job), or a job whose customer has the reviewer's first name and last initial (and last name, where both give it), completed on the day of the review or within the window before it. Two visits to one customer count as one.</li>
<li>When two or more jobs fit, or none does yet, the review waits unpublished. It is published as soon as its job is recorded.</li>
<li>Where no job record can decide (a job paid in cash), the business may vouch for a review itself; Trustpilot's own verification of a review counts too. Each review says which of these it rests on: <code>job</code>, <code>reference</code>, <code>operator</code> or <code>platform</code>, and when.</li>
<li>The rule never reads a review's rating or what it says: a one-star review and a five-star review are treated alike, and every verified review is shown.</li>
<li>The jobs themselves, the customers' contact details and the job numbers are never published.</li>
</ul>
<h2>The figures</h2>
<table>
<caption>Reviews received and published, by where they were written</caption>
<thead><tr><th scope="col">Source</th><th scope="col">Received</th><th scope="col">Published</th></tr></thead>
<tbody>${sources.map(([source, c]) => html`<tr><th scope="row">${SOURCE_NAMES[source] ?? source}</th><td>${formatCount(c.received)}</td><td>${formatCount(c.published)}</td></tr>`)}</tbody>
<tfoot><tr><th scope="row">All</th><td>${formatCount(summary.received)}</td><td>${formatCount(summary.published)}</td></tr></tfoot>
</table>
<p>${formatCount(summary.unmatched)} waiting for a job to match; ${formatCount(summary.removed)} taken out at the request of their author.</p>
<p>Reviews that ${name} collects and shows about itself are its own claims: they are not a search engine's or a platform's rating.</p>
<p><a href="/">See every verified review</a>, or read the same figures in <a href="/reviews.json"><code>/reviews.json</code></a> (its <code>verification</code> object).</p>`,
  });
}

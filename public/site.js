// Progressive enhancement of the home page: the search form asks the search API and shows the answer in place
// (without JavaScript the same form loads the server-rendered results), and the embed snippet gets a copy button.
'use strict';

const FILTERS = ['query', 'rating', 'min_rating', 'since', 'until', 'mentions_technician', 'mentions_service'];
const PAGE_SIZE = 20;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const formatDate = (iso) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
};

function stars(rating) {
  return element('span', { class: 'stars', role: 'img', 'aria-label': `${rating} out of 5 stars` }, '★'.repeat(rating) + '☆'.repeat(5 - rating));
}

/** The same card the server renders (src/site/reviews-list.ts), built with text nodes only. */
function card(review, serviceNames) {
  const href = `/reviews/${encodeURIComponent(review.id)}`;
  const services = review.services.map((id) => serviceNames.get(id) || id);
  const heading = review.title || (services.length ? `${services[0]} — ${review.author}` : `Review by ${review.author}`);
  const text = review.text.length > 600 ? `${review.text.slice(0, review.text.lastIndexOf(' ', 600))}…` : review.text;
  const tags = element('p', { class: 'tags' });
  if (services.length) tags.append(element('span', { class: 'what' }, services.join(', ')));
  if (review.technicians.length) tags.append(element('span', { class: 'who' }, `Technician${review.technicians.length > 1 ? 's' : ''}: ${review.technicians.join(', ')}`));
  if (review.serviceArea) tags.append(element('span', { class: 'where' }, `in ${review.serviceArea}`));
  const article = element(
    'article',
    { class: 'review', id: `review-${review.id}` },
    element('h3', {}, element('a', { class: 'permalink', href }, heading)),
    element('p', { class: 'meta' }, stars(review.rating), ' ', element('span', { class: 'author' }, review.author), ' · ', element('time', { datetime: review.date }, formatDate(review.date))),
    element('p', { class: 'text' }, text),
    tags.childElementCount ? tags : null,
  );
  if (review.response) {
    article.append(element('div', { class: 'response' }, element('p', { class: 'response-by' }, 'Reply from the business, ', element('time', { datetime: review.response.date }, formatDate(review.response.date))), element('p', {}, review.response.text)));
  }
  return element('li', {}, article);
}

function filtersOf(form) {
  const params = new URLSearchParams();
  for (const name of FILTERS) {
    const field = form.elements.namedItem(name);
    if (field && field.value.trim() !== '') params.set(name, field.value.trim());
  }
  return params;
}

async function search(form, event) {
  const params = filtersOf(form);
  const section = document.getElementById('reviews');
  const summary = document.getElementById('results-summary');
  const list = section.querySelector('ol.review-list');
  if (!summary || !list) return;
  event.preventDefault();
  summary.textContent = 'Searching…';
  const response = await fetch(`/api/reviews/search?${params}&limit=${PAGE_SIZE}`, { headers: { accept: 'application/json' } }).catch(() => null);
  if (!response || response.status === 400 || !response.ok) {
    // The server page says what was wrong, field by field.
    location.assign(`/?${params}`);
    return;
  }
  const result = await response.json();
  const serviceNames = new Map([...form.querySelectorAll('select[name=mentions_service] option')].map((o) => [o.value, o.textContent]));
  list.replaceChildren(...result.reviews.map((review) => card(review, serviceNames)));
  const searching = [...params.keys()].length > 0;
  summary.textContent = !searching
    ? `Showing 1–${result.count} of ${result.total.toLocaleString('en-US')} reviews, newest first.`
    : result.total === 0
      ? 'No review matches this search.'
      : `${result.total.toLocaleString('en-US')} ${result.total === 1 ? 'review matches' : 'reviews match'}${result.total > result.count ? `, showing 1–${result.count}` : ''}, newest first.`;
  section.querySelector('nav.pagination')?.remove();
  if (result.total > result.count) {
    const next = new URLSearchParams(params);
    next.set('page', '2');
    list.after(element('nav', { class: 'pagination', 'aria-label': 'Pages of reviews' }, element('span', { class: 'disabled' }, '← Newer'), element('span', { class: 'position' }, `Page 1 of ${Math.ceil(result.total / PAGE_SIZE).toLocaleString('en-US')}`), element('a', { rel: 'next', href: `/?${next}#reviews` }, 'Older →')));
  }
  history.pushState(null, '', searching ? `/?${params}#reviews` : '/#reviews');
}

function addCopyButton() {
  const code = document.getElementById('embed-snippet');
  if (!code || !navigator.clipboard) return;
  const button = element('button', { type: 'button', class: 'copy' }, 'Copy the snippet');
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(code.textContent).then(
      () => (button.textContent = 'Copied'),
      () => (button.textContent = 'Select the text and copy it'),
    );
  });
  code.parentElement.after(button);
}

document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('search');
  // Anything going wrong in place falls back to the form's own request: the server renders the results.
  if (form) form.addEventListener('submit', (event) => search(form, event).catch(() => form.submit()));
  // The page shown after going back was changed in place: load it as the address says.
  window.addEventListener('popstate', () => location.reload());
  addCopyButton();
});

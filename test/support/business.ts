// Business records for tests: one with services in every category, technicians and contact details.
import type { Business } from '../../src/reviews/schemas.js';

/** A valid business; `overrides` set any field (tests whose assertions name its services or technicians pass them). */
export function newBusiness(overrides: Partial<Business> = {}): Business {
  return {
    name: 'Cold Front Home Services',
    url: 'https://cold-front.example/',
    telephone: '+1 555 0100',
    areaServed: ['Springfield', 'Shelbyville'],
    services: [
      { id: 'ac-repair', name: 'AC repair', category: 'cooling' },
      { id: 'drain-cleaning', name: 'Drain cleaning', category: 'plumbing' },
      { id: 'panel-upgrade', name: 'Panel upgrade', category: 'electrical' },
    ],
    technicians: [{ name: 'Dana Ortiz' }, { name: 'Zoë Martínez' }],
    ...overrides,
  };
}

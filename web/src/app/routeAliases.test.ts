import { describe, expect, it } from 'vitest';
import { IMPLEMENTED, ROUTE_ALIASES, SECTION_REDIRECTS } from './pages';

describe('the routes of spec §2 that lead elsewhere', () => {
  it('each lead to a page that exists, and none shadows a page of its own', () => {
    for (const [from, to] of Object.entries({ ...SECTION_REDIRECTS, ...ROUTE_ALIASES })) {
      expect(IMPLEMENTED.has(to), `${from} → ${to}`).toBe(true);
      expect(IMPLEMENTED.has(from), from).toBe(false);
    }
  });

  it('sections go where §2 says, for the sections whose page exists', () => {
    expect(SECTION_REDIRECTS['/noti']).toBe('/noti/notification');
    expect(SECTION_REDIRECTS['/code']).toBe('/code/findCode');
    expect(SECTION_REDIRECTS['/order']).toBe('/order/workOrder');
    expect(SECTION_REDIRECTS['/count']).toBe('/count/dataReport');
  });
});

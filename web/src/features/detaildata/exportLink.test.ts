import { describe, expect, it } from 'vitest';
import { exportHref } from './exportLink';

describe('detail data export link', () => {
  it("links one carrier's span", () => {
    expect(exportHref('carrier', ['12'], [1000, 2000])).toBe('/service/detailData/export?carrierIds=12&start=1000&end=2000');
  });
  it('has no link for several carriers, for sensors or for nothing chosen (only one carrier for query or export)', () => {
    expect(exportHref('carrier', ['12', '13'], [1000, 2000])).toBeNull();
    expect(exportHref('sensor', ['A1T1'], [1000, 2000])).toBeNull();
    expect(exportHref('carrier', [], [1000, 2000])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { nextChosen } from './logic';
import { moveItem } from '../../app/menu';

describe('shortcut choice', () => {
  it('keeps the order of kept entries and adds new ones at the end in tree order', () => {
    expect(nextChosen([3, 1], [1, 3, 2, 5], [1, 2, 3, 4, 5], 12)).toEqual([3, 1, 2, 5]);
  });
  it('drops unchecked entries', () => {
    expect(nextChosen([3, 1, 2], [2], [1, 2, 3], 12)).toEqual([2]);
  });
  it('never holds more than the maximum', () => {
    expect(nextChosen([1, 2], [1, 2, 3, 4], [1, 2, 3, 4], 3)).toEqual([1, 2, 3]);
  });
  it('reorders by moving one entry to another position', () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2], 5, 0)).toEqual([1, 2]);
  });
});

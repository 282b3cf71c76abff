import { describe, expect, it } from 'vitest';
import { badFields } from './ImportDialog';

describe('import errors', () => {
  it('turn the server\'s {"row.column": message} into table rows in row order', () => {
    expect(badFields({ '12.type': 'bad type', '3.devNo': 'taken', '12.devNo': 'bad number' })).toEqual([
      { key: '3.devNo', row: 3, column: 'devNo', message: 'taken' },
      { key: '12.devNo', row: 12, column: 'devNo', message: 'bad number' },
      { key: '12.type', row: 12, column: 'type', message: 'bad type' },
    ]);
  });
});

import { z } from 'zod';
import { paging } from '@coldwatch/contract';

/** Query schema of every `/page` call: spec paging plus whatever filters the module adds. */
export const pageQuery = <T extends z.ZodRawShape>(filters: T) => z.object({ ...paging, ...filters });

export const pageResult = <T>(rows: T[], total: number, q: { iDisplayStart: number; iDisplayLength: number }) => ({
  total,
  rows,
  iDisplayStart: q.iDisplayStart,
  iDisplayLength: q.iDisplayLength,
});

/** `ids=1,2,3` of the spec's `/del?ids=` calls. */
export const idsQuery = z.object({
  ids: z
    .string({ error: 'errors.selectAtLeastOne' })
    .transform((s) => s.split(',').map((x) => Number(x.trim())).filter((n) => Number.isInteger(n) && n > 0))
    .refine((a) => a.length > 0, { error: 'errors.selectAtLeastOne' }),
});

import { useImperativeHandle, useState, type ReactNode, type Ref } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Result, Table, type TableProps } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@coldwatch/contract';
import type { z } from 'zod';
import type { Result as Answer, RouteDef } from '@coldwatch/contract';
import { call, keyOf } from '../api/call';
import { errorMessage } from '../app/errors';
import { PhoneRows, type PhoneTable } from './PhoneRows';
import { usePhone } from './useNarrow';

type QueryValue = string | number | boolean | undefined | null;

/** What the server's `/page` calls answer. */
export interface PagedResult<T> {
  total: number;
  rows: T[];
  more?: boolean;
}

/** A `/page` operation of the contract. */
export type PagedRoute = RouteDef & { result: z.ZodType<PagedResult<unknown>> };
/** The filters of a `/page` operation: its query without the paging. */
export type FiltersOf<D extends RouteDef> = D['query'] extends z.ZodType ? Partial<Omit<z.input<D['query']>, 'iDisplayStart' | 'iDisplayLength'>> : never;
/** The row type of a `/page` operation. */
export type RowOf<D extends PagedRoute> = Answer<D>['rows'][number];

export interface PagedTableRef {
  /** Fetches the current page again. */
  reload(): void;
  /** Goes back to page 1 and fetches. */
  reset(): void;
}

export interface PagedTableProps<D extends PagedRoute> extends Omit<TableProps<RowOf<D>>, 'dataSource' | 'pagination' | 'loading'> {
  /** The `/page` operation; its filters and paging go as query parameters. */
  route: D;
  /** Filters (the operation's query, named as the contract names them); when they change the table goes back to page 1. */
  params?: FiltersOf<D>;
  /** Default 15 (spec §9); sizes offered 15/20/50/100. */
  defaultPageSize?: number;
  /** Refetch every n ms (live lists). */
  refetchInterval?: number;
  /** Called with each answer. */
  onLoaded?: (res: Answer<D>) => void;
  ref?: Ref<PagedTableRef>;
}

/** antd Table fed by a paged request (spec §2 'paged table'; §9 page sizes). */
export function PagedTable<D extends PagedRoute>({
  route,
  params,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  refetchInterval,
  onLoaded,
  ref,
  ...table
}: PagedTableProps<D>) {
  const { t } = useTranslation();
  const pk = JSON.stringify(params ?? {});
  const [pg, setPg] = useState({ pk, current: 1, size: defaultPageSize });
  const current = pg.pk === pk ? pg.current : 1;
  const size = pg.size;

  const q = useQuery({
    queryKey: keyOf(route, { pk, current, size }),
    queryFn: async () => {
      // Empty filters are left out: the contract's filters are optional, not empty strings.
      const filters = Object.fromEntries(Object.entries((params ?? {}) as Record<string, QueryValue>).filter(([, v]) => v !== undefined && v !== null && v !== ''));
      const query = { ...filters, iDisplayStart: (current - 1) * size, iDisplayLength: size };
      const res = (await call(route as RouteDef, { query } as never)) as Answer<D>;
      onLoaded?.(res);
      return res;
    },
    placeholderData: keepPreviousData,
    refetchInterval,
  });

  useImperativeHandle(ref, () => ({
    reload: () => void q.refetch(),
    reset: () => {
      if (current === 1) void q.refetch();
      else setPg({ pk, current: 1, size });
    },
  }));

  const total = q.data?.total ?? 0;
  const phone = usePhone();
  const pagination = {
    current,
    pageSize: size,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showLessItems: true,
    // A list that grows without bound is counted a window past the page (server paged()).
    showTotal: (n: number) => t(q.data?.more ? 'common:table.totalMore' : 'common:table.total', { total: n }),
    onChange: (c: number, s: number) => setPg({ pk, current: s !== size ? 1 : c, size: s }),
  };
  const locale = q.isError
    ? {
        ...table.locale,
        emptyText: (
          <Result
            status="warning"
            subTitle={errorMessage(q.error, t)}
            extra={
              <Button size="small" onClick={() => q.refetch()}>
                {t('common:action.retry')}
              </Button>
            }
          />
        ),
      }
    : table.locale;
  const loading = q.isFetching && !refetchInterval;
  // On a phone the rows are cards: the table's columns side by side do not fit 390 px.
  if (phone) return <PhoneRows table={table as unknown as PhoneTable} rows={q.data?.rows ?? []} loading={loading} empty={locale?.emptyText as ReactNode} pagination={pagination} />;
  return <Table<RowOf<D>> {...table} dataSource={q.data?.rows ?? []} loading={loading} locale={locale} pagination={pagination} />;
}

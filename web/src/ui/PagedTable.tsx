import { useImperativeHandle, useState, type Ref } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Result, Table, type TableProps } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@coldwatch/contract';
import { api } from '../api/client';
import { errorMessage } from '../app/errors';

type QueryValue = string | number | boolean | undefined | null;

/** Paging of spec §7: an offset and a length. */
export interface PageParams {
  iDisplayStart: number;
  iDisplayLength: number;
}

/** What the server's `/page` calls answer (extra fields are ignored). */
export interface PagedResult<T> {
  total: number;
  rows: T[];
}

export interface PagedTableRef {
  /** Fetches the current page again. */
  reload(): void;
  /** Goes back to page 1 and fetches. */
  reset(): void;
}

export interface PagedTableProps<T> extends Omit<TableProps<T>, 'dataSource' | 'pagination' | 'loading'> {
  /** Fetches one page: gets the filters of `params` plus iDisplayStart/iDisplayLength. */
  request?: (p: PageParams & Record<string, QueryValue>) => Promise<PagedResult<T>>;
  /** Shortcut for `request`: GET this path with the filters and paging as query parameters. */
  url?: string;
  /** Filters; when they change the table goes back to page 1. */
  params?: Record<string, QueryValue>;
  /** Cache key prefix (default: [url] or ['paged']); give one when using `request`. */
  queryKey?: readonly unknown[];
  /** Default 15 (spec §9); sizes offered 15/20/50/100. */
  defaultPageSize?: number;
  /** Refetch every n ms (live lists). */
  refetchInterval?: number;
  /** Called with each answer. */
  onLoaded?: (res: PagedResult<T>) => void;
  ref?: Ref<PagedTableRef>;
}

/** antd Table fed by a paged request (spec §2 'paged table'; §9 page sizes). */
export function PagedTable<T extends object>({
  request,
  url,
  params,
  queryKey,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  refetchInterval,
  onLoaded,
  ref,
  ...table
}: PagedTableProps<T>) {
  const { t } = useTranslation();
  const pk = JSON.stringify(params ?? {});
  const [pg, setPg] = useState({ pk, current: 1, size: defaultPageSize });
  const current = pg.pk === pk ? pg.current : 1;
  const size = pg.size;

  const q = useQuery({
    queryKey: [...(queryKey ?? [url ?? 'paged']), pk, current, size],
    queryFn: async () => {
      const p = { ...(params ?? {}), iDisplayStart: (current - 1) * size, iDisplayLength: size };
      const res = request ? await request(p) : await api.get<PagedResult<T>>(url!, p);
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
  return (
    <Table<T>
      {...table}
      dataSource={q.data?.rows ?? []}
      loading={q.isFetching && !refetchInterval}
      locale={
        q.isError
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
          : table.locale
      }
      pagination={{
        current,
        pageSize: size,
        total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES.map(String),
        showLessItems: true,
        showTotal: (n) => t('common:table.total', { total: n }),
        onChange: (c, s) => setPg({ pk, current: s !== size ? 1 : c, size: s }),
      }}
    />
  );
}

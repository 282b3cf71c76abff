/**
 * The system log's content in the reader's language. The server writes a short English line
 * with each entry (`add contact Li Wei`) and keeps its parameters; the reader sees the action
 * and the object of the entry's method and module in its own language, with the one detail
 * that names the record (its name, label, account or ids). An entry whose method has no
 * translation keeps the server's line.
 */
import type { TFunction } from 'i18next';

/** Fields that name a record, in the order they are looked for. */
const NAMING = ['name', 'label', 'account', 'unit', 'devNo', 'sn', 'groupName'] as const;

function detailOf(params: unknown): string {
  if (!params || typeof params !== 'object') return '';
  const p = params as Record<string, unknown>;
  if (typeof p.key === 'string' && 'value' in p) return `${p.key} = ${String(p.value)}`;
  for (const k of NAMING) if (typeof p[k] === 'string' && p[k]) return p[k] as string;
  if (Array.isArray(p.ids)) return `#${p.ids.join(', #')}`;
  if (typeof p.ids === 'string' && p.ids) return `#${p.ids.split(',').join(', #')}`;
  if (typeof p.id === 'number' || typeof p.id === 'string') return `#${p.id}`;
  return '';
}

export function logContent(t: TFunction, row: { module: string; method: string; content: string; params: unknown }): string {
  const action = t(`syslog:methods.${row.method}`, { defaultValue: '' });
  if (!action) return row.content;
  const object = t(`syslog:modules.${row.module}`, { defaultValue: row.module });
  const detail = detailOf(row.params);
  return t(detail ? 'syslog:line' : 'syslog:lineBare', { action, object, lower: object.toLocaleLowerCase(), detail });
}

/**
 * Form rules of spec §5 for the tenancy pages (customers, users, roles, menu resources), as
 * antd rules, plus the server-error → form-field mapping. Format rules are the contract's zod
 * schemas (`zodRule`, `matches`), never copies; messages come from the page's catalogue (`rule.*`).
 */
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

/** A form's optional text as the body sends it: trimmed, '' when left empty. */
export const trimmed = (s?: string) => (s ?? '').trim();

/** Builds the antd rules of one field. `t` resolves `rule.*` in the page's namespace. */
export function rules(t: TFunction, o: { required?: boolean; max?: number }): Rule[] {
  const r: Rule[] = [];
  if (o.required) r.push({ required: true, whitespace: true, message: t('rule.required') });
  if (o.max) r.push({ max: o.max, message: t('rule.maxLength', { max: o.max }) });
  return r;
}

/**
 * Field errors of a failed save: `result.errors` ({field: message}) mapped onto fields the form
 * has. Returns the entries to pass to `form.setFields`, or [] when none names a known field
 * (then the caller shows the server message as a toast).
 */
export function fieldErrors(e: unknown, known: readonly string[]): { name: string; errors: string[] }[] {
  if (!(e instanceof ApiError) || !e.details) return [];
  return Object.entries(e.details)
    .map(([k, msg]) => ({ name: k.split('.')[0], errors: [String(msg)] }))
    .filter((f) => known.includes(f.name));
}

/**
 * §8 answers that name one field (customer create: 406 bad code, 410 type empty, 418 name,
 * 420 code, 421 e-mail, 422 mobile; user: 412, 414, 416, 417, 418, 419; role 409; menu 407, 408).
 * The message is the server's (already translated).
 */
export function codeField(e: unknown, map: Record<number, string>): { name: string; errors: string[] }[] {
  if (!(e instanceof ApiError)) return [];
  const f = map[e.code];
  return f ? [{ name: f, errors: [e.message] }] : [];
}

/**
 * Field errors of a failed save for a dialog: `fieldErrors` on the known fields, or else the
 * field the §8 code names (`codeField`). [] when neither applies (the caller toasts).
 */
export function serverFieldErrors(e: unknown, known: readonly string[], codes: Record<number, string>): { name: string; errors: string[] }[] {
  const f = fieldErrors(e, known);
  return f.length ? f : codeField(e, codes);
}

/** Customer create: the administrator's e-mail and mobile are the customer's e-mail and phone (contract customer.ts). */
export const CUSTOMER_CODE_FIELDS: Record<number, string> = { 406: 'code', 410: 'type', 416: 'account', 418: 'name', 420: 'code', 421: 'email', 422: 'phone' };
export const USER_CODE_FIELDS: Record<number, string> = { 412: 'email', 414: 'status', 416: 'account', 417: 'name', 418: 'mobile', 419: 'email' };
export const ROLE_CODE_FIELDS: Record<number, string> = { 409: 'name', 413: 'resourceIds', 415: 'proxyCustomerIds' };
export const MENU_CODE_FIELDS: Record<number, string> = { 407: 'name', 408: 'code' };

/** Server rows may carry numeric strings; ids become numbers. */
export const toId = (v: unknown): number | undefined => (v === null || v === undefined || v === '' ? undefined : Number(v));
/** A zod-like schema (contract rules): only safeParse is used. */
interface Parser {
  safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/**
 * A contract rule (zod schema of `@coldwatch/contract`) as an antd validator. The failure
 * message is a catalogue key of the server's `errors` catalogue (`errors.rule.account`); it
 * is shown from the page's own catalogue as `rule.<last part>` (`rule.account`).
 */
export function zodRule(schema: Parser, t: TFunction, opts: { optional?: boolean } = {}): Rule {
  return {
    validator: async (_r, value) => {
      if (opts.optional && (value === undefined || value === null || value === '')) return;
      const res = schema.safeParse(typeof value === 'string' ? value : (value ?? undefined));
      if (res.success) return;
      throw new Error(ruleMessage(res.error?.issues[0]?.message ?? '', t));
    },
  };
}

/** A contract rule as an antd validator with the page's own message (empty values pass: `required` is its own rule). */
export function matches(schema: Parser, message: string): Rule {
  return {
    validator: async (_r, value) => {
      if (value === undefined || value === null || value === '') return;
      if (!schema.safeParse(value).success) throw new Error(message);
    },
  };
}

/** `errors.rule.maxLength50` → t('rule.maxLength', {max: 50}); `errors.rule.x` → t('rule.x'). */
export function ruleMessage(key: string, t: TFunction): string {
  const last = key.split('.').pop() ?? '';
  const m = /^maxLength(\d+)$/.exec(last);
  if (m) return t('rule.maxLength', { max: Number(m[1]) });
  return t(`rule.${last}`, { defaultValue: t('rule.format') });
}

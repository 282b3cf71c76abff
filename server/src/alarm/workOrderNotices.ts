import { toLocale, DEFAULT_LOCALE, type Locale, type WorkOrderAction, type WorkOrderSide } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import { catalogues, fill, fmtTime } from './templates.js';

/*
 * The e-mails of work orders (docs/workorders.md "Notices"): every step tells the other side,
 * through the outbox (notice_log, type 'workOrder', sent by notifier.ts), in the same transaction
 * as the step. The customer side is the user who raised the order (else its customer's
 * administrators); the provider side is the users of the proxies governing the customer (their
 * active proxy roles), else the platform's administrators. Each in the language it chose.
 * Here, beside the other notices, because it reads people of several customers.
 */

export interface WorkOrderNoticeFacts {
  id: number;
  customerId: number;
  raisedById: number | null;
  subjectName: string;
  category: string;
  description: string;
}

export interface WorkOrderStepFacts {
  action: WorkOrderAction;
  /** The side that took the step: the other one is told. */
  side: WorkOrderSide;
  by: string;
  note: string;
  rating?: number;
  status: number;
}

interface Person {
  email: string;
  locale: string | null;
}

const HAS_MAIL = `coalesce(u.email, '') <> '' AND u.status = 1`;

/** The provider's people for a customer: its governing proxies' users, else the platform administrators. */
async function providerPeople(q: Queryable, customerId: number): Promise<Person[]> {
  return q.query<Person>(
    `WITH proxies AS (
       SELECT DISTINCT u.email, u.locale FROM role_proxy_customer rpc
         JOIN role r ON r.id = rpc.role_id AND r.status = 1
         JOIN user_role ur ON ur.role_id = r.id
         JOIN app_user u ON u.id = ur.user_id
        WHERE rpc.governed_id = $1 AND u.user_type = -1 AND ${HAS_MAIL})
     SELECT email, locale FROM proxies
     UNION ALL
     SELECT u.email, u.locale FROM app_user u WHERE NOT EXISTS (SELECT 1 FROM proxies) AND u.user_type = 3 AND ${HAS_MAIL}`,
    [customerId],
  );
}

/** The customer's people: who raised the order, else the customer's administrators. */
async function customerPeople(q: Queryable, customerId: number, raisedById: number | null): Promise<Person[]> {
  return q.query<Person>(
    `WITH raiser AS (SELECT u.email, u.locale FROM app_user u WHERE u.id = $2 AND u.customer_id = $1 AND ${HAS_MAIL})
     SELECT email, locale FROM raiser
     UNION ALL
     SELECT u.email, u.locale FROM app_user u WHERE NOT EXISTS (SELECT 1 FROM raiser) AND u.customer_id = $1 AND u.is_admin AND ${HAS_MAIL}`,
    [customerId, raisedById],
  );
}

/** Subject and body of a step's e-mail in one language. */
export function renderWorkOrder(o: WorkOrderNoticeFacts & { customer: string; tz: string }, s: WorkOrderStepFacts & { at: number }, locale: Locale): { subject: string; content: string } {
  const w = catalogues[locale].workOrder;
  const vars: Record<string, string> = {
    id: String(o.id),
    customer: o.customer,
    subjectName: o.subjectName,
    category: w.category[o.category as keyof typeof w.category] ?? o.category,
    description: o.description,
    action: w.action[s.action],
    by: s.by,
    at: fmtTime(s.at, o.tz),
    status: w.status[String(s.status) as keyof typeof w.status] ?? String(s.status),
    note: s.note ? fill(w.note, { note: s.note }) : '',
    rating: s.rating ? fill(w.rating, { rating: String(s.rating) }) : '',
    next: w.next[s.action],
  };
  return { subject: fill(w.subject, vars).slice(0, 200), content: fill(w.body, vars) };
}

/** Writes the step's e-mails to the other side into the outbox; answers how many. */
export async function tellWorkOrderStep(q: Queryable, o: WorkOrderNoticeFacts, s: WorkOrderStepFacts, now = Date.now()): Promise<number> {
  const people = s.side === 'customer' ? await providerPeople(q, o.customerId) : await customerPeople(q, o.customerId, o.raisedById);
  if (!people.length) return 0;
  const [cu] = await q.query<{ name: string; time_zone: string }>('SELECT name, time_zone FROM customer WHERE id = $1', [o.customerId]);
  const facts = { ...o, customer: cu?.name ?? '', tz: cu?.time_zone ?? '+08:00' };
  const seen = new Set<string>();
  let n = 0;
  for (const p of people) {
    if (seen.has(p.email)) continue;
    seen.add(p.email);
    const mail = renderWorkOrder(facts, { ...s, at: now }, toLocale(p.locale) ?? DEFAULT_LOCALE);
    await q.query(`INSERT INTO notice_log (customer_id, type, channel, recipient, subject, content) VALUES ($1, 'workOrder', 'email', $2, $3, $4)`, [
      o.customerId,
      p.email,
      mail.subject,
      mail.content,
    ]);
    n++;
  }
  return n;
}

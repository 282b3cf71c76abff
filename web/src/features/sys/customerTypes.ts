export { ORG_TYPES, CUSTOMER_STATUS } from '@coldwatch/contract';
/** The contract's customer types in the dialog's order: the everyday choice first. */
export const CUSTOMER_TYPES = ['customer', 'platform'] as const;

/** A row of the contract's customerApi.page (and detail). */
export type { CustomerRow } from '@coldwatch/contract';

/** A user as the contract's userApi.page and .detail answer it (spec §3 User). */
export type { UserRow } from '@coldwatch/contract';

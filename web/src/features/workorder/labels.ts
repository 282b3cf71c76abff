import { WORK_ORDER_FLOW, WORK_ORDER_STATUS, type WorkOrderDetail } from '@coldwatch/contract';

/** The tag colour of each state (antd presets): waiting on the provider, in progress, waiting on the customer, closed. */
export const STATUS_COLOR: Record<number, string> = {
  [WORK_ORDER_STATUS.pending]: 'gold',
  [WORK_ORDER_STATUS.accepted]: 'processing',
  [WORK_ORDER_STATUS.rejected]: 'error',
  [WORK_ORDER_STATUS.done]: 'cyan',
  [WORK_ORDER_STATUS.confirmed]: 'blue',
  [WORK_ORDER_STATUS.evaluated]: 'success',
  [WORK_ORDER_STATUS.cancelled]: 'default',
};

export type StepAction = keyof typeof WORK_ORDER_FLOW;

/** The function code each step needs (the server's route config): cancelling is removing, the rest editing. */
export const STEP_PERM = (a: StepAction) => (a === 'cancel' ? 'removeWorkOrder' : 'editWorkOrder');

/** The steps the caller's side may take on the order as it is now (the contract's flow, as the server enforces it). */
export function offeredSteps(d: Pick<WorkOrderDetail, 'status' | 'mySide'>): StepAction[] {
  return (Object.keys(WORK_ORDER_FLOW) as StepAction[]).filter((a) => WORK_ORDER_FLOW[a].side === d.mySide && (WORK_ORDER_FLOW[a].from as readonly number[]).includes(d.status));
}

/** Steps whose note is required (the server refuses them without: errors.workOrder.reasonRequired). */
export const NOTE_REQUIRED: readonly StepAction[] = ['reject', 'record'];

import { EventEmitter } from 'node:events';
import type { DeviceStatusEvent, ExceptionEvent, LiveReading } from '@coldwatch/contract';

/** The live events are the stream's (packages/contract/src/api/live.ts): what ingest and the alarm tell the process. */
export type { DeviceStatusEvent, ExceptionEvent, LiveReading };

/** A gateway event (power_fail, door_open, …) after it is stored. */
export interface GatewayEventMessage {
  customerId: number;
  gatewayId: number;
  sn: string;
  sensorId: number | null;
  devNo: string | null;
  type: string;
  ts: number;
}

/**
 * Device credentials or ownership changed (a secret reset, a delete, an sn or number change,
 * a customer cancelled): ingest forgets what it knew of them at once, and with `close` the
 * embedded broker ends the open sessions of those gateways, so the next connect is judged
 * anew. `customerId` alone means every device of that customer.
 */
export interface DirectoryEvent {
  gateways?: string[];
  sensors?: string[];
  customerId?: number;
  close?: boolean;
}

interface Events {
  reading: [LiveReading];
  directory: [DirectoryEvent];
  gatewayEvent: [GatewayEventMessage];
  exception: [ExceptionEvent];
  deviceStatus: [DeviceStatusEvent];
}

/** In-process bus: fans committed facts out to live streams and the alarm evaluator. */
export class Bus extends EventEmitter<Events> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}

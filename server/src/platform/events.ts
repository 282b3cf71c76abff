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

/** A system parameter changed (the monitor map's tile URL is kept in memory for the CSP). */
export interface ParamEvent {
  key: string;
  value: string;
}

/**
 * Where an event was committed: absent for this process, REMOTE for another replica's
 * commit that reached this one over PostgreSQL (platform/cluster). Work that belongs to the
 * committing process (the alarm evaluator's kick) skips remote events; what every replica
 * must know (live streams, caches) takes both.
 */
export const REMOTE = 'remote' as const;
export type Origin = typeof REMOTE | undefined;

export interface Events {
  reading: [LiveReading, Origin?];
  directory: [DirectoryEvent, Origin?];
  gatewayEvent: [GatewayEventMessage, Origin?];
  exception: [ExceptionEvent, Origin?];
  deviceStatus: [DeviceStatusEvent, Origin?];
  param: [ParamEvent, Origin?];
}

export type EventName = keyof Events;

/** The events that every replica must see (the cluster bridge forwards exactly these; gateway events are stored and read from the table). */
export const SHARED_EVENTS = ['reading', 'directory', 'exception', 'deviceStatus', 'param'] as const satisfies readonly EventName[];

/** In-process bus: fans committed facts out to live streams, caches and the alarm evaluator. */
export class Bus extends EventEmitter<Events> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}

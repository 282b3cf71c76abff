import { EventEmitter } from 'node:events';

/** What ingest tells the rest of the process after a commit: the latest values of a sensor. */
export interface LiveReading {
  customerId: number;
  sensorId: number;
  devNo: string;
  carrierId: number | null;
  ts: number;
  temp?: number | null;
  hum?: number | null;
  volt?: number | null;
  rssi?: number | null;
  lqi?: number | null;
  gas?: number | null;
  door?: number | null;
}

export interface ExceptionEvent {
  customerId: number;
  exceptionId: number;
  carrierId: number | null;
  sensorId: number | null;
  category: string;
  ongoing: boolean;
}

export interface DeviceStatusEvent {
  customerId: number;
  kind: 'gateway' | 'sensor';
  id: number;
  status: number;
}

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

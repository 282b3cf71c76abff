import { z } from 'zod';
import { route } from './route.js';

/** What a gateway needs to reach this console (spec §1 device enrollment; docs/device-protocol.md). */
export const connectInfo = z.object({
  /** Host and port a gateway's MQTT client connects to; username = serial number, password = the secret. */
  mqttHost: z.string(),
  mqttPort: z.number().int().nullable(),
  /** True when gateways connect to an external broker (MQTT_URL), which then authenticates them itself. */
  externalBroker: z.boolean(),
  /** Base URL of HTTP ingest (`POST {httpIngest}/{sn}/data`). */
  httpIngest: z.string(),
});
export type ConnectInfo = z.infer<typeof connectInfo>;

export const wizardApi = {
  connectInfo: route({
    method: 'GET',
    path: '/service/wizard/connectInfo',
    tag: 'wizard',
    summary: 'Where gateways connect: the MQTT host and port and the HTTP ingest address',
    result: connectInfo,
  }),
};

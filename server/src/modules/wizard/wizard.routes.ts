import { wizardApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { serve } from '../../platform/http/route.js';

/**
 * The set-up wizard's last step tells the user where to point a gateway. The host is the one the
 * user reached the console by (PUBLIC_URL when set, else the request's host): a gateway on the
 * same network reaches the broker there. With an external broker, that broker's host and port.
 */
export const wizardRoutes: Module = (app, deps) => {
  serve(app, wizardApi.connectInfo, { funcs: ['newGateway'] }, async (req) => {
    const base = deps.config.publicUrl ? new URL(deps.config.publicUrl) : (URL.parse(`${req.protocol}://${req.host}`) ?? new URL('http://localhost'));
    const httpIngest = `${base.origin}/ingest/v1`;
    if (deps.config.mqttUrl) {
      const broker = new URL(deps.config.mqttUrl);
      return { mqttHost: broker.hostname, mqttPort: Number(broker.port || (broker.protocol === 'mqtts:' ? 8883 : 1883)), externalBroker: true, httpIngest };
    }
    return { mqttHost: base.hostname, mqttPort: deps.mqttPort ?? deps.config.mqttPort, externalBroker: false, httpIngest };
  });
};

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../deps.js';
import { userRoutes } from './user/user.routes.js';
import { loginRoutes } from './user/login.routes.js';
import { mineRoutes } from './user/mine.routes.js';
import { sceneRoutes } from './scene/scene.routes.js';
import { carrierRoutes } from './carrier/carrier.routes.js';
import { planeRoutes } from './plane/plane.routes.js';
import { wizardRoutes } from './wizard/wizard.routes.js';
import { gatewayRoutes } from './gateway/gateway.routes.js';
import { sensorRoutes } from './sensor/sensor.routes.js';
import { contactRoutes } from './contact/contact.routes.js';
import { dmRoutes } from './dm/dm.routes.js';
import { historyRoutes } from './history/history.routes.js';
import { liveRoutes } from './live/live.routes.js';
import { ingestRoutes } from '../ingest/http.js';
import { exceptionRoutes } from './exception/exception.routes.js';
import { noticeRoutes } from './notice/notice.routes.js';
import { shortcutRoutes } from './shortcut/shortcut.routes.js';
import { loginQrRoutes } from './loginqr/loginqr.routes.js';
import { syslogRoutes } from './syslog/syslog.routes.js';
import { alarmLogRoutes } from './alarmlog/alarmlog.routes.js';
import { customerRoutes } from './customer/customer.routes.js';
import { roleRoutes } from './role/role.routes.js';
import { resourceRoutes } from './resource/resource.routes.js';
import { paramRoutes } from './param/param.routes.js';
import { scheduledRoutes } from './scheduled/scheduled.routes.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { unitRoutes } from './unit/unit.routes.js';
import { typeRoutes } from './type/type.routes.js';
import { configRoutes } from './config/config.routes.js';
import { loanRoutes } from './loan/loan.routes.js';

export type ZApp = FastifyInstance<any, any, any, any, ZodTypeProvider>;
export type Module = (app: ZApp, deps: AppDeps) => void | Promise<void>;

/** Every domain's routes. A route registered here is covered by the guard and the foreign-user test. */
export const modules: Module[] = [loginRoutes, mineRoutes, userRoutes, ingestRoutes, sceneRoutes, planeRoutes, wizardRoutes, carrierRoutes, gatewayRoutes, sensorRoutes, contactRoutes, unitRoutes, typeRoutes, configRoutes, loanRoutes, dmRoutes, historyRoutes, liveRoutes, exceptionRoutes, noticeRoutes, shortcutRoutes, loginQrRoutes, syslogRoutes, alarmLogRoutes, customerRoutes, roleRoutes, resourceRoutes, paramRoutes, scheduledRoutes, metricsRoutes];

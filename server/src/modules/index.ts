import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../deps.js';
import { userRoutes } from './user/user.routes.js';

export type ZApp = FastifyInstance<any, any, any, any, ZodTypeProvider>;
export type Module = (app: ZApp, deps: AppDeps) => void | Promise<void>;

/** Every domain's routes. A route registered here is covered by the guard and the foreign-user test. */
export const modules: Module[] = [userRoutes];

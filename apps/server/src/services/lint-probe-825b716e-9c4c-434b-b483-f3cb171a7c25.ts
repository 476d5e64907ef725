import { routeHandler } from '../http/pipeline.ts';
export const probe = routeHandler;
